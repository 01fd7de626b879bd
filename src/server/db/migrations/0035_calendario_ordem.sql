DROP INDEX "avisos_abertos_limite_idx";--> statement-breakpoint
DROP INDEX "exigencias_abertas_prazo_idx";--> statement-breakpoint
DROP INDEX "servicos_vigencia_fim_idx";--> statement-breakpoint
CREATE INDEX "avisos_abertos_limite_idx" ON "avisos" USING btree ("data_limite","id") WHERE "avisos"."resolvido" = false;--> statement-breakpoint
CREATE INDEX "exigencias_abertas_prazo_idx" ON "exigencias" USING btree ("prazo","id") WHERE "exigencias"."respondida_em" is null;--> statement-breakpoint
CREATE INDEX "servicos_vigencia_fim_idx" ON "servicos" USING btree ("vigencia_fim","id");