CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "avisos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"texto" text NOT NULL,
	"data_limite" date NOT NULL,
	"resolvido" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categorias" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"nome" text NOT NULL,
	"descricao" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clientes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"nome" text NOT NULL,
	"documento" text NOT NULL,
	"email" text NOT NULL,
	"nascimento" date,
	"telefone" text,
	"cep" text,
	"logradouro" text,
	"complemento" text,
	"bairro" text,
	"localidade" text,
	"uf" text,
	"endereco" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clientes_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "clientes_documento_unique" UNIQUE("documento")
);
--> statement-breakpoint
CREATE TABLE "envios_email" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"assunto" text NOT NULL,
	"destinatarios" text[] NOT NULL,
	"enviados" integer NOT NULL,
	"falhas" integer NOT NULL,
	"erro" text,
	"origem" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"avisar" integer NOT NULL,
	"mensagem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_avisar_check" CHECK ("schedules"."avisar" >= 1)
);
--> statement-breakpoint
CREATE TABLE "servicos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cliente_id" uuid NOT NULL,
	"tipo_servico_id" uuid NOT NULL,
	"vigencia_inicio" date,
	"vigencia_fim" date,
	"status_id" uuid,
	"protocolo" text,
	"detalhes" text,
	"anotacoes" text,
	"notificacao" text,
	"emails_interessados" text,
	"emails_tecnicos" text,
	"visualizado_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicos_tipos_documentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"tipo_documento_id" uuid NOT NULL,
	"caminho_arquivo" text NOT NULL,
	"data_envio" timestamp with time zone DEFAULT now() NOT NULL,
	"status_id" uuid,
	"visivel_usuario" boolean DEFAULT true NOT NULL,
	"tipo_documento" text
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "status" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"nome" text NOT NULL,
	"descricao" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tipos_documentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tipo" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tipos_servicos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tipo" text NOT NULL,
	"categoria_id" uuid,
	"validade" integer NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"mensagem_aviso" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tipos_servicos_validade_check" CHECK ("tipos_servicos"."validade" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tipos_servicos_tipos_documentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tipo_servico_id" uuid NOT NULL,
	"tipo_documento_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin', 'usuario'))
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avisos" ADD CONSTRAINT "avisos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clientes" ADD CONSTRAINT "clientes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envios_email" ADD CONSTRAINT "envios_email_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_cliente_id_clientes_id_fk" FOREIGN KEY ("cliente_id") REFERENCES "public"."clientes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_tipo_servico_id_tipos_servicos_id_fk" FOREIGN KEY ("tipo_servico_id") REFERENCES "public"."tipos_servicos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_status_id_status_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."status"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD CONSTRAINT "servicos_tipos_documentos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD CONSTRAINT "servicos_tipos_documentos_tipo_documento_id_tipos_documentos_id_fk" FOREIGN KEY ("tipo_documento_id") REFERENCES "public"."tipos_documentos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD CONSTRAINT "servicos_tipos_documentos_status_id_status_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."status"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipos_servicos" ADD CONSTRAINT "tipos_servicos_categoria_id_categorias_id_fk" FOREIGN KEY ("categoria_id") REFERENCES "public"."categorias"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipos_servicos_tipos_documentos" ADD CONSTRAINT "tipos_servicos_tipos_documentos_tipo_servico_id_tipos_servicos_id_fk" FOREIGN KEY ("tipo_servico_id") REFERENCES "public"."tipos_servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipos_servicos_tipos_documentos" ADD CONSTRAINT "tipos_servicos_tipos_documentos_tipo_documento_id_tipos_documentos_id_fk" FOREIGN KEY ("tipo_documento_id") REFERENCES "public"."tipos_documentos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "avisos_servico_created_idx" ON "avisos" USING btree ("servico_id","created_at");--> statement-breakpoint
CREATE INDEX "avisos_abertos_idx" ON "avisos" USING btree ("servico_id") WHERE "avisos"."resolvido" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "clientes_email_lower_idx" ON "clientes" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "clientes_created_at_idx" ON "clientes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "envios_email_servico_idx" ON "envios_email" USING btree ("servico_id","created_at");--> statement-breakpoint
CREATE INDEX "servicos_cliente_created_idx" ON "servicos" USING btree ("cliente_id","created_at");--> statement-breakpoint
CREATE INDEX "servicos_created_at_idx" ON "servicos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "servicos_status_idx" ON "servicos" USING btree ("status_id");--> statement-breakpoint
CREATE INDEX "servicos_tipo_servico_idx" ON "servicos" USING btree ("tipo_servico_id");--> statement-breakpoint
CREATE INDEX "servicos_vigencia_fim_idx" ON "servicos" USING btree ("vigencia_fim");--> statement-breakpoint
CREATE UNIQUE INDEX "documento_servico_tipo_idx" ON "servicos_tipos_documentos" USING btree ("servico_id","tipo_documento_id");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "status_nome_idx" ON "status" USING btree ("nome");--> statement-breakpoint
CREATE INDEX "tipos_servicos_categoria_idx" ON "tipos_servicos" USING btree ("categoria_id");--> statement-breakpoint
CREATE UNIQUE INDEX "regra_tipo_servico_tipo_documento_idx" ON "tipos_servicos_tipos_documentos" USING btree ("tipo_servico_id","tipo_documento_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");