ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "tamanho" bigint;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "enviado_por" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD CONSTRAINT "documento_enviado_por_check" CHECK ("servicos_tipos_documentos"."enviado_por" in ('admin', 'cliente'));