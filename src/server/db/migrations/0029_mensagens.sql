CREATE TABLE "mensagem_anexos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mensagem_id" uuid NOT NULL,
	"caminho" text NOT NULL,
	"nome" text NOT NULL,
	"tamanho" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mensagens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"autor_id" text,
	"autor_nome" text NOT NULL,
	"lado" text NOT NULL,
	"texto" text NOT NULL,
	"interna" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"editada_em" timestamp with time zone,
	CONSTRAINT "mensagens_lado_check" CHECK ("mensagens"."lado" in ('cliente', 'consultoria')),
	CONSTRAINT "mensagens_texto_check" CHECK (char_length("mensagens"."texto") <= 5000),
	CONSTRAINT "mensagens_interna_check" CHECK (not "mensagens"."interna" or "mensagens"."lado" = 'consultoria')
);
--> statement-breakpoint
CREATE TABLE "mensagens_leituras" (
	"user_id" text NOT NULL,
	"servico_id" uuid NOT NULL,
	"lida_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mensagens_leituras_user_id_servico_id_pk" PRIMARY KEY("user_id","servico_id")
);
--> statement-breakpoint
ALTER TABLE "notificacoes" DROP CONSTRAINT "notificacoes_tipo_check";--> statement-breakpoint
ALTER TABLE "mensagem_anexos" ADD CONSTRAINT "mensagem_anexos_mensagem_id_mensagens_id_fk" FOREIGN KEY ("mensagem_id") REFERENCES "public"."mensagens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensagens" ADD CONSTRAINT "mensagens_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensagens" ADD CONSTRAINT "mensagens_autor_id_user_id_fk" FOREIGN KEY ("autor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensagens_leituras" ADD CONSTRAINT "mensagens_leituras_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensagens_leituras" ADD CONSTRAINT "mensagens_leituras_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mensagem_anexos_mensagem_idx" ON "mensagem_anexos" USING btree ("mensagem_id");--> statement-breakpoint
CREATE INDEX "mensagem_anexos_caminho_idx" ON "mensagem_anexos" USING btree ("caminho");--> statement-breakpoint
CREATE INDEX "mensagens_servico_idx" ON "mensagens" USING btree ("servico_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mensagens_autor_idx" ON "mensagens" USING btree ("autor_id") WHERE "mensagens"."autor_id" is not null;--> statement-breakpoint
CREATE INDEX "mensagens_leituras_servico_idx" ON "mensagens_leituras" USING btree ("servico_id");--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido', 'documento_rejeitado', 'renovacao_prazo_perdido', 'condicionante_prazo', 'mensagem_nova'));