CREATE TABLE "servicos_contagem" (
	"categoria_id" uuid,
	"status_id" uuid,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_chave" UNIQUE NULLS NOT DISTINCT("categoria_id","status_id")
);
--> statement-breakpoint
CREATE TABLE "servicos_contagem_mes" (
	"categoria_id" uuid,
	"status_id" uuid,
	"arquivado" boolean NOT NULL,
	"mes" date,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_mes_chave" UNIQUE NULLS NOT DISTINCT("categoria_id","status_id","arquivado","mes")
);
--> statement-breakpoint
CREATE TABLE "servicos_painel" (
	"servico_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"busca" text NOT NULL,
	"categoria_id" uuid,
	"status_id" uuid,
	"arquivado" boolean NOT NULL,
	"vigencia_fim" date
);
--> statement-breakpoint
ALTER TABLE "servicos_painel" ADD CONSTRAINT "servicos_painel_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "servicos_painel_created_idx" ON "servicos_painel" USING btree ("created_at","servico_id");--> statement-breakpoint
CREATE INDEX "servicos_painel_status_created_idx" ON "servicos_painel" USING btree ("status_id","created_at","servico_id");--> statement-breakpoint
CREATE INDEX "servicos_painel_categoria_created_idx" ON "servicos_painel" USING btree ("categoria_id","created_at","servico_id");--> statement-breakpoint
CREATE INDEX "servicos_painel_vigencia_idx" ON "servicos_painel" USING btree ("vigencia_fim","servico_id","categoria_id","status_id") WHERE "servicos_painel"."arquivado" = false;--> statement-breakpoint
CREATE INDEX "servicos_painel_busca_idx" ON "servicos_painel" USING gin ("busca" gin_trgm_ops);