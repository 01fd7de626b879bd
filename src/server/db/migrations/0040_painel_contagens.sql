CREATE TABLE "servicos_contagem_filtros" (
	"orgao_id" uuid,
	"etapa" text,
	"em_analise" boolean NOT NULL,
	"categoria_id" uuid,
	"status_id" uuid,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_filtros_chave" UNIQUE NULLS NOT DISTINCT("orgao_id","etapa","em_analise","categoria_id","status_id")
);
--> statement-breakpoint
CREATE TABLE "servicos_contagem_vigencia" (
	"dia" date NOT NULL,
	"categoria_id" uuid,
	"status_id" uuid,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_vigencia_chave" UNIQUE NULLS NOT DISTINCT("dia","categoria_id","status_id")
);
--> statement-breakpoint
-- Custom SQL (issue 33): the dashboard's totals that counted their rows counted from kept counts,
-- so they cost the same at 1,000,000 services as at 100,000. "Órgão", "Etapa no órgão" and
-- 'Aguardando análise' without a search summed per (agency, stage, waiting, category, status);
-- the rest of the current month of 'Próximos a vencer' summed per day of its end. Kept by a
-- statement trigger on servicos_painel in the writing transaction, as the other counts
-- (migrations 0003, 0007, 0039): -1 for each row a statement removed, +1 for each it added, in
-- the key's order (concurrent writers take the count rows in the same order), only for the keys
-- whose number changed.
CREATE FUNCTION servicos_contagem_filtros_aplica(antigos servicos_painel[], novos servicos_painel[])
RETURNS void LANGUAGE sql AS $$
  WITH linhas AS (
    SELECT r.orgao_id, r.etapa, r.documentos_em_analise > 0 AS em_analise, r.categoria_id,
           r.status_id, CASE WHEN NOT r.arquivado THEN r.vigencia_fim END AS dia, -1 AS d
    FROM unnest(antigos) r
    UNION ALL
    SELECT r.orgao_id, r.etapa, r.documentos_em_analise > 0, r.categoria_id,
           r.status_id, CASE WHEN NOT r.arquivado THEN r.vigencia_fim END, 1
    FROM unnest(novos) r
  ), por_filtros AS (
    INSERT INTO servicos_contagem_filtros AS c (orgao_id, etapa, em_analise, categoria_id, status_id, total)
    SELECT orgao_id, etapa, em_analise, categoria_id, status_id, sum(d) FROM linhas
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT servicos_contagem_filtros_chave DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_vigencia AS c (dia, categoria_id, status_id, total)
  SELECT dia, categoria_id, status_id, sum(d) FROM linhas WHERE dia IS NOT NULL
  GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ON CONSTRAINT servicos_contagem_vigencia_chave DO UPDATE SET total = c.total + excluded.total
$$;
--> statement-breakpoint
-- An UPDATE passes only the rows whose counted columns changed (most change words or dates).
CREATE FUNCTION servicos_contagem_filtros() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM servicos_contagem_filtros_aplica('{}', ARRAY(SELECT ROW(n.*)::servicos_painel FROM filtros_novos n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM servicos_contagem_filtros_aplica(ARRAY(SELECT ROW(o.*)::servicos_painel FROM filtros_antigos o), '{}');
  ELSE
    PERFORM servicos_contagem_filtros_aplica(
      ARRAY(SELECT ROW(o.*)::servicos_painel FROM filtros_antigos o JOIN filtros_novos n USING (servico_id)
            WHERE (o.orgao_id, o.etapa, o.documentos_em_analise > 0, o.categoria_id, o.status_id, o.arquivado, o.vigencia_fim)
               IS DISTINCT FROM (n.orgao_id, n.etapa, n.documentos_em_analise > 0, n.categoria_id, n.status_id, n.arquivado, n.vigencia_fim)),
      ARRAY(SELECT ROW(n.*)::servicos_painel FROM filtros_antigos o JOIN filtros_novos n USING (servico_id)
            WHERE (o.orgao_id, o.etapa, o.documentos_em_analise > 0, o.categoria_id, o.status_id, o.arquivado, o.vigencia_fim)
               IS DISTINCT FROM (n.orgao_id, n.etapa, n.documentos_em_analise > 0, n.categoria_id, n.status_id, n.arquivado, n.vigencia_fim)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER servicos_painel_filtros_ins AFTER INSERT ON servicos_painel
  REFERENCING NEW TABLE AS filtros_novos FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_filtros();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_filtros_upd AFTER UPDATE ON servicos_painel
  REFERENCING OLD TABLE AS filtros_antigos NEW TABLE AS filtros_novos
  FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_filtros();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_filtros_del AFTER DELETE ON servicos_painel
  REFERENCING OLD TABLE AS filtros_antigos FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_filtros();
--> statement-breakpoint
INSERT INTO servicos_contagem_filtros (orgao_id, etapa, em_analise, categoria_id, status_id, total)
SELECT orgao_id, etapa, documentos_em_analise > 0, categoria_id, status_id, count(*)
FROM servicos_painel GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO servicos_contagem_vigencia (dia, categoria_id, status_id, total)
SELECT vigencia_fim, categoria_id, status_id, count(*)
FROM servicos_painel WHERE NOT arquivado AND vigencia_fim IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
-- The data version (versao-dados.ts): written only with servicos_painel, which moves it already;
-- their own triggers keep the rule whole.
CREATE TRIGGER servicos_contagem_filtros_versao_ins AFTER INSERT ON servicos_contagem_filtros
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_filtros_versao_upd AFTER UPDATE ON servicos_contagem_filtros
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_filtros_versao_del AFTER DELETE ON servicos_contagem_filtros
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_filtros_versao_trunc AFTER TRUNCATE ON servicos_contagem_filtros
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_vigencia_versao_ins AFTER INSERT ON servicos_contagem_vigencia
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_vigencia_versao_upd AFTER UPDATE ON servicos_contagem_vigencia
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_vigencia_versao_del AFTER DELETE ON servicos_contagem_vigencia
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_vigencia_versao_trunc AFTER TRUNCATE ON servicos_contagem_vigencia
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
