ALTER TABLE "envios_email" ADD COLUMN "pendentes" text[];--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "trava" uuid;--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "travado_ate" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "conteudo" text;--> statement-breakpoint
ALTER TABLE "servicos" ADD COLUMN "origem" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "tamanho" bigint;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "enviado_por" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "envios_email_em_andamento_idx" ON "envios_email" USING btree ("servico_id") WHERE "envios_email"."pendentes" is not null;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_origem_check" CHECK ("servicos"."origem" in ('admin', 'cliente'));--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD CONSTRAINT "documento_enviado_por_check" CHECK ("servicos_tipos_documentos"."enviado_por" in ('admin', 'cliente'));