ALTER TABLE "notificacoes" DROP CONSTRAINT "notificacoes_tipo_check";--> statement-breakpoint
DROP INDEX "documento_versoes_em_analise_idx";--> statement-breakpoint
ALTER TABLE "documento_versoes" ALTER COLUMN "documento_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD COLUMN "entrega_id" uuid;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD COLUMN "comentario" text;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD COLUMN "condicionante_id" uuid;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_entrega_id_condicionantes_entregas_id_fk" FOREIGN KEY ("entrega_id") REFERENCES "public"."condicionantes_entregas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_condicionante_id_condicionantes_id_fk" FOREIGN KEY ("condicionante_id") REFERENCES "public"."condicionantes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documento_versoes_entrega_idx" ON "documento_versoes" USING btree ("entrega_id","created_at") WHERE "documento_versoes"."entrega_id" is not null;--> statement-breakpoint
CREATE INDEX "notificacoes_condicionante_idx" ON "notificacoes" USING btree ("condicionante_id") WHERE "notificacoes"."condicionante_id" is not null;--> statement-breakpoint
CREATE INDEX "documento_versoes_em_analise_idx" ON "documento_versoes" USING btree ("created_at","id") WHERE "documento_versoes"."estado" = 'enviado' and "documento_versoes"."documento_id" is not null;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_dono_check" CHECK (("documento_versoes"."documento_id" is null) <> ("documento_versoes"."entrega_id" is null));--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido', 'documento_rejeitado', 'renovacao_prazo_perdido', 'condicionante_prazo', 'mensagem_nova', 'processo_andamento', 'evidencia_enviada', 'evidencia_rejeitada'));