CREATE TABLE "calendario_assinaturas" (
	"user_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"etag" text,
	"modificado_em" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendario_assinaturas_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "exigencias" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"descricao" text NOT NULL,
	"recebida_em" date NOT NULL,
	"prazo" date NOT NULL,
	"respondida_em" date,
	"protocolo_resposta" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exigencias_documentos" (
	"exigencia_id" uuid NOT NULL,
	"tipo_documento_id" uuid NOT NULL,
	CONSTRAINT "exigencias_documentos_exigencia_id_tipo_documento_id_pk" PRIMARY KEY("exigencia_id","tipo_documento_id")
);
--> statement-breakpoint
CREATE TABLE "orgaos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sigla" text NOT NULL,
	"nome" text NOT NULL,
	"esfera" text NOT NULL,
	"uf" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orgaos_esfera_check" CHECK ("orgaos"."esfera" in ('Federal', 'Estadual', 'Municipal'))
);
--> statement-breakpoint
CREATE TABLE "processos" (
	"servico_id" uuid PRIMARY KEY NOT NULL,
	"orgao_id" uuid,
	"numero_processo" text,
	"data_protocolo" date,
	"etapa" text NOT NULL,
	"etapa_desde" date NOT NULL,
	"decisao_prevista" date,
	"responsavel_id" text,
	"conselho" text,
	"registro" text,
	"art" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processos_etapa_check" CHECK ("processos"."etapa" in ('em_preparacao', 'protocolado', 'em_analise', 'aguardando_informacoes', 'vistoria', 'deferido', 'indeferido', 'arquivado')),
	CONSTRAINT "processos_conselho_check" CHECK ("processos"."conselho" in ('CREA', 'CRBio', 'CRQ', 'CFT', 'CAU'))
);
--> statement-breakpoint
CREATE TABLE "processos_andamentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"etapa" text NOT NULL,
	"data" date NOT NULL,
	"nota_cliente" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processos_andamentos_etapa_check" CHECK ("processos_andamentos"."etapa" in ('em_preparacao', 'protocolado', 'em_analise', 'aguardando_informacoes', 'vistoria', 'deferido', 'indeferido', 'arquivado'))
);
--> statement-breakpoint
ALTER TABLE "notificacoes" DROP CONSTRAINT "notificacoes_tipo_check";--> statement-breakpoint
ALTER TABLE "calendario_assinaturas" ADD CONSTRAINT "calendario_assinaturas_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exigencias" ADD CONSTRAINT "exigencias_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exigencias_documentos" ADD CONSTRAINT "exigencias_documentos_exigencia_id_exigencias_id_fk" FOREIGN KEY ("exigencia_id") REFERENCES "public"."exigencias"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exigencias_documentos" ADD CONSTRAINT "exigencias_documentos_tipo_documento_id_tipos_documentos_id_fk" FOREIGN KEY ("tipo_documento_id") REFERENCES "public"."tipos_documentos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processos" ADD CONSTRAINT "processos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processos" ADD CONSTRAINT "processos_orgao_id_orgaos_id_fk" FOREIGN KEY ("orgao_id") REFERENCES "public"."orgaos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processos" ADD CONSTRAINT "processos_responsavel_id_user_id_fk" FOREIGN KEY ("responsavel_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processos_andamentos" ADD CONSTRAINT "processos_andamentos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exigencias_servico_idx" ON "exigencias" USING btree ("servico_id","prazo");--> statement-breakpoint
CREATE INDEX "exigencias_abertas_prazo_idx" ON "exigencias" USING btree ("prazo") WHERE "exigencias"."respondida_em" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "orgaos_sigla_chave_idx" ON "orgaos" USING btree (portal_nome_chave("sigla"));--> statement-breakpoint
CREATE INDEX "processos_orgao_idx" ON "processos" USING btree ("orgao_id");--> statement-breakpoint
CREATE INDEX "processos_andamentos_servico_idx" ON "processos_andamentos" USING btree ("servico_id","data","created_at");--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido', 'documento_rejeitado', 'renovacao_prazo_perdido', 'condicionante_prazo', 'mensagem_nova', 'processo_andamento'));