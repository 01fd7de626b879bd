ALTER TABLE "envios_email" ADD COLUMN "pendentes" text[];--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "trava" uuid;--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "travado_ate" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "envios_email" ADD COLUMN "conteudo" text;--> statement-breakpoint
CREATE UNIQUE INDEX "envios_email_em_andamento_idx" ON "envios_email" USING btree ("servico_id") WHERE "envios_email"."pendentes" is not null;