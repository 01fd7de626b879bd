CREATE TABLE "renovacoes" (
	"servico_id" uuid PRIMARY KEY NOT NULL,
	"data_protocolo" date NOT NULL,
	"numero_processo" text NOT NULL,
	"status_anterior_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renovacoes_prazos_perdidos" (
	"servico_id" uuid NOT NULL,
	"prazo" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renovacoes_prazos_perdidos_servico_id_prazo_pk" PRIMARY KEY("servico_id","prazo")
);
--> statement-breakpoint
ALTER TABLE "notificacoes" DROP CONSTRAINT "notificacoes_tipo_check";--> statement-breakpoint
ALTER TABLE "renovacoes" ADD CONSTRAINT "renovacoes_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renovacoes" ADD CONSTRAINT "renovacoes_status_anterior_id_status_id_fk" FOREIGN KEY ("status_anterior_id") REFERENCES "public"."status"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renovacoes_prazos_perdidos" ADD CONSTRAINT "renovacoes_prazos_perdidos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido', 'documento_rejeitado', 'renovacao_prazo_perdido'));--> statement-breakpoint
-- 'Em renovação' (seed.ts STATUS_INICIAIS) for installations that already have their statuses; a
-- new one gets it from seedStatuses after the others, so it is never "the first status".
INSERT INTO "status" ("nome", "descricao")
SELECT 'Em renovação', 'Renovação protocolada no prazo: a licença continua válida até a decisão do órgão (LC 140/2011, art. 14, §4º).'
WHERE EXISTS (SELECT 1 FROM "status")
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The document type of the renewal's receipt ("Comprovante" of "Registrar protocolo da renovação").
INSERT INTO "tipos_documentos" ("tipo") VALUES ('Comprovante de protocolo da renovação')
ON CONFLICT DO NOTHING;
