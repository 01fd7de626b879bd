CREATE TABLE "empresa" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"nome" text NOT NULL,
	"email" text,
	"telefone" text,
	"endereco" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "empresa_uma_linha_check" CHECK ("empresa"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "avisos_automaticos" DROP CONSTRAINT "avisos_automaticos_chave";--> statement-breakpoint
ALTER TABLE "avisos_automaticos" ALTER COLUMN "schedule_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tipos_servicos" ADD COLUMN "antecedencia_renovacao" integer;--> statement-breakpoint
ALTER TABLE "avisos_automaticos" ADD CONSTRAINT "avisos_automaticos_chave" UNIQUE NULLS NOT DISTINCT("servico_id","schedule_id","vigencia_fim");--> statement-breakpoint
ALTER TABLE "tipos_servicos" ADD CONSTRAINT "tipos_servicos_antecedencia_check" CHECK ("tipos_servicos"."antecedencia_renovacao" between 1 and 3650);