CREATE TABLE "condicionantes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"servico_id" uuid NOT NULL,
	"item" text NOT NULL,
	"descricao" text NOT NULL,
	"tipo" text NOT NULL,
	"primeiro_prazo" date,
	"periodicidade" text,
	"intervalo_meses" integer,
	"antecedencia_dias" integer DEFAULT 30 NOT NULL,
	"responsavel" text NOT NULL,
	"visivel_cliente" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "condicionantes_tipo_check" CHECK ("condicionantes"."tipo" in ('prazo', 'continua')),
	CONSTRAINT "condicionantes_responsavel_check" CHECK ("condicionantes"."responsavel" in ('cliente', 'consultoria')),
	CONSTRAINT "condicionantes_periodicidade_check" CHECK ("condicionantes"."periodicidade" in ('unica', 'mensal', 'trimestral', 'semestral', 'anual', 'meses'))
);
--> statement-breakpoint
CREATE TABLE "condicionantes_entregas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"condicionante_id" uuid NOT NULL,
	"servico_id" uuid NOT NULL,
	"cliente_id" uuid NOT NULL,
	"responsavel" text NOT NULL,
	"data_prevista" date NOT NULL,
	"aviso_em" date NOT NULL,
	"estado" text DEFAULT 'pendente' NOT NULL,
	"protocolo_orgao" text,
	"protocolado_em" date,
	"avisado_proxima_em" timestamp with time zone,
	"avisado_atraso_em" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "condicionantes_entregas_estado_check" CHECK ("condicionantes_entregas"."estado" in ('pendente', 'em_analise', 'cumprida', 'nao_se_aplica')),
	CONSTRAINT "condicionantes_entregas_responsavel_check" CHECK ("condicionantes_entregas"."responsavel" in ('cliente', 'consultoria'))
);
--> statement-breakpoint
CREATE TABLE "condicionantes_entregas_contagem" (
	"data_prevista" date NOT NULL,
	"aviso_em" date NOT NULL,
	"estado" text NOT NULL,
	"responsavel" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "condicionantes_entregas_contagem_data_prevista_aviso_em_estado_responsavel_pk" PRIMARY KEY("data_prevista","aviso_em","estado","responsavel")
);
--> statement-breakpoint
ALTER TABLE "notificacoes" DROP CONSTRAINT "notificacoes_tipo_check";--> statement-breakpoint
ALTER TABLE "condicionantes" ADD CONSTRAINT "condicionantes_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condicionantes_entregas" ADD CONSTRAINT "condicionantes_entregas_condicionante_id_condicionantes_id_fk" FOREIGN KEY ("condicionante_id") REFERENCES "public"."condicionantes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condicionantes_entregas" ADD CONSTRAINT "condicionantes_entregas_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condicionantes_entregas" ADD CONSTRAINT "condicionantes_entregas_cliente_id_clientes_id_fk" FOREIGN KEY ("cliente_id") REFERENCES "public"."clientes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "condicionantes_servico_idx" ON "condicionantes" USING btree ("servico_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "condicionantes_entregas_data_idx" ON "condicionantes_entregas" USING btree ("condicionante_id","data_prevista");--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_servico_idx" ON "condicionantes_entregas" USING btree ("servico_id","data_prevista");--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_prevista_idx" ON "condicionantes_entregas" USING btree ("data_prevista","id");--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_cliente_idx" ON "condicionantes_entregas" USING btree ("cliente_id","data_prevista","id");--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_pendentes_idx" ON "condicionantes_entregas" USING btree ("data_prevista","id") WHERE "condicionantes_entregas"."estado" = 'pendente';--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_aviso_idx" ON "condicionantes_entregas" USING btree ("aviso_em") WHERE "condicionantes_entregas"."estado" = 'pendente' and "condicionantes_entregas"."avisado_proxima_em" is null;--> statement-breakpoint
CREATE INDEX "condicionantes_entregas_atraso_idx" ON "condicionantes_entregas" USING btree ("data_prevista") WHERE "condicionantes_entregas"."estado" = 'pendente' and "condicionantes_entregas"."avisado_atraso_em" is null;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_tipo_check" CHECK (tipo in ('aviso_novo', 'documento_disponivel', 'status_alterado', 'aviso_automatico', 'servico_solicitado', 'documento_enviado', 'aviso_concluido', 'documento_rejeitado', 'renovacao_prazo_perdido', 'condicionante_prazo'));--> statement-breakpoint
-- Custom SQL (drizzle-kit cannot express it): the counts of the entregas by (due date, warning
-- date, estado, side), kept by a row trigger; the list across clients and the menu's badge sum them.
CREATE FUNCTION condicionantes_entregas_contar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE condicionantes_entregas_contagem SET n = n - 1
    WHERE data_prevista = OLD.data_prevista AND aviso_em = OLD.aviso_em
      AND estado = OLD.estado AND responsavel = OLD.responsavel;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO condicionantes_entregas_contagem AS c (data_prevista, aviso_em, estado, responsavel, n)
    VALUES (NEW.data_prevista, NEW.aviso_em, NEW.estado, NEW.responsavel, 1)
    ON CONFLICT (data_prevista, aviso_em, estado, responsavel) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER condicionantes_entregas_contagem_trg
AFTER INSERT OR DELETE OR UPDATE OF data_prevista, aviso_em, estado, responsavel
ON condicionantes_entregas FOR EACH ROW EXECUTE FUNCTION condicionantes_entregas_contar();
