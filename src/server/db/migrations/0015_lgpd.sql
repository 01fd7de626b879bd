CREATE TABLE "consentimentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"versao" text NOT NULL,
	"aceito_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retencao" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"auditoria_dias" integer DEFAULT 1825 NOT NULL,
	"envios_email_dias" integer DEFAULT 1825 NOT NULL,
	"sessoes_dias" integer DEFAULT 30 NOT NULL,
	"contas_nao_confirmadas_dias" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retencao_uma_linha_check" CHECK ("retencao"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "solicitacoes_lgpd" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cliente_id" uuid,
	"user_id" text,
	"pedido_em" timestamp with time zone DEFAULT now() NOT NULL,
	"prazo" timestamp with time zone NOT NULL,
	"estado" text DEFAULT 'pendente' NOT NULL,
	"motivo" text,
	"decidido_por" text,
	"decidido_em" timestamp with time zone,
	CONSTRAINT "solicitacoes_lgpd_estado_check" CHECK ("solicitacoes_lgpd"."estado" in ('pendente', 'concluida', 'recusada'))
);
--> statement-breakpoint
ALTER TABLE "empresa" ADD COLUMN "encarregado_nome" text;--> statement-breakpoint
ALTER TABLE "empresa" ADD COLUMN "encarregado_email" text;--> statement-breakpoint
ALTER TABLE "consentimentos" ADD CONSTRAINT "consentimentos_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitacoes_lgpd" ADD CONSTRAINT "solicitacoes_lgpd_cliente_id_clientes_id_fk" FOREIGN KEY ("cliente_id") REFERENCES "public"."clientes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitacoes_lgpd" ADD CONSTRAINT "solicitacoes_lgpd_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitacoes_lgpd" ADD CONSTRAINT "solicitacoes_lgpd_decidido_por_user_id_fk" FOREIGN KEY ("decidido_por") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consentimentos_user_versao_idx" ON "consentimentos" USING btree ("user_id","versao");--> statement-breakpoint
CREATE INDEX "solicitacoes_lgpd_estado_prazo_idx" ON "solicitacoes_lgpd" USING btree ("estado","prazo");--> statement-breakpoint
CREATE UNIQUE INDEX "solicitacoes_lgpd_pendente_idx" ON "solicitacoes_lgpd" USING btree ("user_id") WHERE "solicitacoes_lgpd"."estado" = 'pendente';