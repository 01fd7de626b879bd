CREATE TABLE "notificacoes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"tipo" text NOT NULL,
	"titulo" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"email_em" timestamp with time zone,
	CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido'))
);
--> statement-breakpoint
CREATE TABLE "notificacoes_email_desligado" (
	"user_id" text NOT NULL,
	"tipo" text NOT NULL,
	CONSTRAINT "notificacoes_email_desligado_user_id_tipo_pk" PRIMARY KEY("user_id","tipo")
);
--> statement-breakpoint
ALTER TABLE "avisos" ADD COLUMN "visivel_cliente" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- The avisos written before the flag existed were never meant for the client.
UPDATE "avisos" SET "visivel_cliente" = false;--> statement-breakpoint
ALTER TABLE "avisos" ADD COLUMN "concluido_cliente_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificacoes_email_desligado" ADD CONSTRAINT "notificacoes_email_desligado_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notificacoes_user_created_idx" ON "notificacoes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notificacoes_nao_lidas_idx" ON "notificacoes" USING btree ("user_id") WHERE "notificacoes"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notificacoes_email_pendente_idx" ON "notificacoes" USING btree ("created_at") WHERE "notificacoes"."read_at" is null and "notificacoes"."email_em" is null;