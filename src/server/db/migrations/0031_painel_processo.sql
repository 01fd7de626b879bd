ALTER TABLE "servicos_painel" ADD COLUMN "orgao_id" uuid;--> statement-breakpoint
ALTER TABLE "servicos_painel" ADD COLUMN "etapa" text;--> statement-breakpoint
CREATE INDEX "servicos_painel_orgao_created_idx" ON "servicos_painel" USING btree ("orgao_id","created_at","servico_id");--> statement-breakpoint
CREATE INDEX "servicos_painel_etapa_created_idx" ON "servicos_painel" USING btree ("etapa","created_at","servico_id");--> statement-breakpoint
-- ---- custom SQL (issue 31): the dashboard's "Órgão" and "Etapa no órgão" ----
-- The read model carries the agency and the stage of each service's process, copied from
-- processos by statement triggers in the writing transaction (as the other columns are from
-- servicos): the UPDATE of servicos_painel moves the data version on (servicos_contagem_aplica),
-- so a search's kept total is never stale. A service without a process has neither.
CREATE OR REPLACE FUNCTION servicos_painel_processo(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  UPDATE servicos_painel p SET orgao_id = n.orgao_id, etapa = n.etapa
  FROM (
    SELECT s.id, pr.orgao_id, pr.etapa
    FROM unnest(ids) AS s(id)
    LEFT JOIN processos pr ON pr.servico_id = s.id
  ) n
  WHERE p.servico_id = n.id AND (p.orgao_id, p.etapa) IS DISTINCT FROM (n.orgao_id, n.etapa)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION processos_painel() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := ARRAY(SELECT servico_id FROM novos ORDER BY 1);
  ELSIF TG_OP = 'DELETE' THEN
    ids := ARRAY(SELECT servico_id FROM antigos ORDER BY 1);
  ELSE
    ids := ARRAY(
      SELECT n.servico_id FROM novos n JOIN antigos o ON o.servico_id = n.servico_id
      WHERE (n.orgao_id, n.etapa) IS DISTINCT FROM (o.orgao_id, o.etapa) ORDER BY 1);
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM servicos_painel_processo(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER processos_painel_ins AFTER INSERT ON processos
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION processos_painel();
--> statement-breakpoint
CREATE TRIGGER processos_painel_upd AFTER UPDATE ON processos
  REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION processos_painel();
--> statement-breakpoint
CREATE TRIGGER processos_painel_del AFTER DELETE ON processos
  REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION processos_painel();
--> statement-breakpoint
-- The processes recorded before this migration.
SELECT servicos_painel_processo(ARRAY(SELECT servico_id FROM processos ORDER BY 1));
