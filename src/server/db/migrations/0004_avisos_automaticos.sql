CREATE TABLE "avisos_automaticos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"schedule_id" uuid NOT NULL,
	"vigencia_fim" date NOT NULL,
	"avisar" integer NOT NULL,
	"aviso_id" uuid,
	"situacao" text NOT NULL,
	"pendentes" text[],
	"tentativas" integer DEFAULT 0 NOT NULL,
	"ultimo_erro" text,
	"travado_ate" timestamp with time zone,
	"enviado_em" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "avisos_automaticos_chave" UNIQUE("servico_id","schedule_id","vigencia_fim"),
	CONSTRAINT "avisos_automaticos_situacao_check" CHECK ("avisos_automaticos"."situacao" in ('pendente', 'enviado', 'substituido'))
);
--> statement-breakpoint
CREATE TABLE "avisos_execucoes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dia" date NOT NULL,
	"desde" date NOT NULL,
	"origem" text NOT NULL,
	"avisos_criados" integer DEFAULT 0 NOT NULL,
	"emails_enviados" integer DEFAULT 0 NOT NULL,
	"falhas" integer DEFAULT 0 NOT NULL,
	"servicos_vencidos" integer DEFAULT 0 NOT NULL,
	"iniciada_em" timestamp with time zone DEFAULT now() NOT NULL,
	"concluida_em" timestamp with time zone,
	CONSTRAINT "avisos_execucoes_origem_check" CHECK ("avisos_execucoes"."origem" in ('agendada', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "avisos_automaticos" ADD CONSTRAINT "avisos_automaticos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avisos_automaticos" ADD CONSTRAINT "avisos_automaticos_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avisos_automaticos" ADD CONSTRAINT "avisos_automaticos_aviso_id_avisos_id_fk" FOREIGN KEY ("aviso_id") REFERENCES "public"."avisos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "avisos_automaticos_aviso_idx" ON "avisos_automaticos" USING btree ("aviso_id");--> statement-breakpoint
CREATE INDEX "avisos_automaticos_pendentes_idx" ON "avisos_automaticos" USING btree ("servico_id") WHERE "avisos_automaticos"."situacao" = 'pendente';--> statement-breakpoint
CREATE INDEX "avisos_execucoes_concluidas_idx" ON "avisos_execucoes" USING btree ("dia") WHERE "avisos_execucoes"."concluida_em" is not null;