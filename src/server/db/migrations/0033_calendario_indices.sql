CREATE TABLE "servicos_prazos" (
	"servico_id" uuid PRIMARY KEY NOT NULL,
	"prazo_renovacao" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "servicos_prazos" ADD CONSTRAINT "servicos_prazos_servico_id_servicos_id_fk" FOREIGN KEY ("servico_id") REFERENCES "public"."servicos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "servicos_prazos_renovacao_idx" ON "servicos_prazos" USING btree ("prazo_renovacao","servico_id");--> statement-breakpoint
CREATE INDEX "avisos_abertos_limite_idx" ON "avisos" USING btree ("data_limite") WHERE "avisos"."resolvido" = false;--> statement-breakpoint
-- ---- custom SQL (issue 31): the calendar's renewal deadlines (servicos_prazos) ----
-- One row per service whose type has a lead time ("antecedência para renovação") and that has
-- an end date: vigencia_fim − antecedencia_renovacao, written in the writing transaction by the
-- triggers below (a service's end date or type changes; a type's lead time changes).
CREATE OR REPLACE FUNCTION servicos_prazos_servico() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  prazo date;
BEGIN
  SELECT NEW.vigencia_fim - t.antecedencia_renovacao INTO prazo
    FROM tipos_servicos t WHERE t.id = NEW.tipo_servico_id;
  IF prazo IS NULL THEN
    DELETE FROM servicos_prazos WHERE servico_id = NEW.id;
  ELSE
    INSERT INTO servicos_prazos (servico_id, prazo_renovacao) VALUES (NEW.id, prazo)
      ON CONFLICT (servico_id) DO UPDATE SET prazo_renovacao = EXCLUDED.prazo_renovacao
      WHERE servicos_prazos.prazo_renovacao IS DISTINCT FROM EXCLUDED.prazo_renovacao;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER servicos_prazos_servico AFTER INSERT OR UPDATE OF vigencia_fim, tipo_servico_id
  ON servicos FOR EACH ROW EXECUTE FUNCTION servicos_prazos_servico();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_prazos_tipo() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM servicos_prazos p USING servicos s
   WHERE s.id = p.servico_id AND s.tipo_servico_id = NEW.id;
  IF NEW.antecedencia_renovacao IS NOT NULL THEN
    INSERT INTO servicos_prazos (servico_id, prazo_renovacao)
      SELECT s.id, s.vigencia_fim - NEW.antecedencia_renovacao FROM servicos s
       WHERE s.tipo_servico_id = NEW.id AND s.vigencia_fim IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER servicos_prazos_tipo AFTER UPDATE OF antecedencia_renovacao ON tipos_servicos
  FOR EACH ROW WHEN (OLD.antecedencia_renovacao IS DISTINCT FROM NEW.antecedencia_renovacao)
  EXECUTE FUNCTION servicos_prazos_tipo();
--> statement-breakpoint
-- The services recorded before this migration.
INSERT INTO servicos_prazos (servico_id, prazo_renovacao)
  SELECT s.id, s.vigencia_fim - t.antecedencia_renovacao
    FROM servicos s JOIN tipos_servicos t ON t.id = s.tipo_servico_id
   WHERE s.vigencia_fim IS NOT NULL AND t.antecedencia_renovacao IS NOT NULL;
