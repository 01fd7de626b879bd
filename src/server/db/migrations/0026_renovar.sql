ALTER TABLE "documento_versoes" DROP CONSTRAINT "documento_versoes_caminho_unique";--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD COLUMN "reaproveitada" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "servicos" ADD COLUMN "renovacao_de" uuid;--> statement-breakpoint
ALTER TABLE "tipos_documentos" ADD COLUMN "validade_dias" integer;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_renovacao_de_servicos_id_fk" FOREIGN KEY ("renovacao_de") REFERENCES "public"."servicos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documento_versoes_caminho_idx" ON "documento_versoes" USING btree ("caminho");--> statement-breakpoint
CREATE UNIQUE INDEX "servicos_renovacao_de_idx" ON "servicos" USING btree ("renovacao_de");--> statement-breakpoint
ALTER TABLE "tipos_documentos" ADD CONSTRAINT "tipos_documentos_validade_check" CHECK ("tipos_documentos"."validade_dias" between 1 and 36500);