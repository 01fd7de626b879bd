-- Dashboard read model. The global dashboard searches text spread over three tables
-- and shows exact totals over 100,000 services: computing them per request costs tens of ms, so
-- servicos_painel and the two count tables are kept in step by these triggers instead.

CREATE OR REPLACE FUNCTION portal_normaliza(t text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT lower(public.unaccent(coalesce(t, ''))) $$;
--> statement-breakpoint

-- Recomputes (inserts or updates) the dashboard rows of the given services.
CREATE OR REPLACE FUNCTION servicos_painel_refresh(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO servicos_painel AS p
    (servico_id, created_at, busca, categoria_id, status_id, arquivado, vigencia_fim)
  SELECT s.id, s.created_at,
         portal_normaliza(c.nome || ' ' || t.tipo || ' ' || coalesce(s.protocolo, '')),
         t.categoria_id, s.status_id,
         coalesce(portal_normaliza(st.nome) = 'arquivado', false),
         s.vigencia_fim
  FROM servicos s
  JOIN clientes c ON c.id = s.cliente_id
  JOIN tipos_servicos t ON t.id = s.tipo_servico_id
  LEFT JOIN status st ON st.id = s.status_id
  WHERE s.id = ANY(ids)
  ORDER BY s.id
  ON CONFLICT (servico_id) DO UPDATE SET
    created_at = excluded.created_at, busca = excluded.busca, categoria_id = excluded.categoria_id,
    status_id = excluded.status_id, arquivado = excluded.arquivado, vigencia_fim = excluded.vigencia_fim
  WHERE (p.created_at, p.busca, p.categoria_id, p.status_id, p.arquivado, p.vigencia_fim)
    IS DISTINCT FROM (excluded.created_at, excluded.busca, excluded.categoria_id,
                      excluded.status_id, excluded.arquivado, excluded.vigencia_fim)
$$;
--> statement-breakpoint

-- Count deltas of a statement on servicos_painel (-1 per old row, +1 per new row), applied in key
-- order so concurrent writers lock count rows in the same order.
CREATE OR REPLACE FUNCTION servicos_contagem_ins() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  WITH delta AS (
    SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date AS mes, sum(n)::int AS n
    FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, 1 AS n FROM novos) d
    GROUP BY 1, 2, 3, 4
  ),
  por_status AS (
    INSERT INTO servicos_contagem AS c (categoria_id, status_id, total)
    SELECT categoria_id, status_id, sum(n) FROM delta
    GROUP BY categoria_id, status_id HAVING sum(n) <> 0
    ORDER BY categoria_id, status_id
    ON CONFLICT (categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_mes AS c (categoria_id, status_id, arquivado, mes, total)
  SELECT categoria_id, status_id, arquivado, mes, n FROM delta WHERE n <> 0
  ORDER BY categoria_id, status_id, arquivado, mes
  ON CONFLICT (categoria_id, status_id, arquivado, mes) DO UPDATE SET total = c.total + excluded.total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_contagem_upd() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  WITH delta AS (
    SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date AS mes, sum(n)::int AS n
    FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, -1 AS n FROM antigos UNION ALL SELECT categoria_id, status_id, arquivado, vigencia_fim, 1 AS n FROM novos) d
    GROUP BY 1, 2, 3, 4
  ),
  por_status AS (
    INSERT INTO servicos_contagem AS c (categoria_id, status_id, total)
    SELECT categoria_id, status_id, sum(n) FROM delta
    GROUP BY categoria_id, status_id HAVING sum(n) <> 0
    ORDER BY categoria_id, status_id
    ON CONFLICT (categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_mes AS c (categoria_id, status_id, arquivado, mes, total)
  SELECT categoria_id, status_id, arquivado, mes, n FROM delta WHERE n <> 0
  ORDER BY categoria_id, status_id, arquivado, mes
  ON CONFLICT (categoria_id, status_id, arquivado, mes) DO UPDATE SET total = c.total + excluded.total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_contagem_del() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  WITH delta AS (
    SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date AS mes, sum(n)::int AS n
    FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, -1 AS n FROM antigos) d
    GROUP BY 1, 2, 3, 4
  ),
  por_status AS (
    INSERT INTO servicos_contagem AS c (categoria_id, status_id, total)
    SELECT categoria_id, status_id, sum(n) FROM delta
    GROUP BY categoria_id, status_id HAVING sum(n) <> 0
    ORDER BY categoria_id, status_id
    ON CONFLICT (categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_mes AS c (categoria_id, status_id, arquivado, mes, total)
  SELECT categoria_id, status_id, arquivado, mes, n FROM delta WHERE n <> 0
  ORDER BY categoria_id, status_id, arquivado, mes
  ON CONFLICT (categoria_id, status_id, arquivado, mes) DO UPDATE SET total = c.total + excluded.total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER servicos_painel_contagem_ins AFTER INSERT ON servicos_painel
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_ins();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_contagem_upd AFTER UPDATE ON servicos_painel
  REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_upd();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_contagem_del AFTER DELETE ON servicos_painel
  REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION servicos_contagem_del();
--> statement-breakpoint

CREATE OR REPLACE FUNCTION servicos_painel_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := ARRAY(SELECT id FROM novos);
  ELSE
    ids := ARRAY(
      SELECT n.id FROM novos n JOIN antigos o ON o.id = n.id
      WHERE (n.cliente_id, n.tipo_servico_id, n.protocolo, n.status_id, n.vigencia_fim, n.created_at)
        IS DISTINCT FROM (o.cliente_id, o.tipo_servico_id, o.protocolo, o.status_id, o.vigencia_fim, o.created_at));
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM servicos_painel_refresh(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER servicos_painel_ins AFTER INSERT ON servicos
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION servicos_painel_sync();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_upd AFTER UPDATE ON servicos
  REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION servicos_painel_sync();
--> statement-breakpoint

-- A renamed client, a renamed or re-categorised type, a status renamed to or from 'Arquivado'.
CREATE OR REPLACE FUNCTION servicos_painel_dependencia() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'clientes' THEN
    PERFORM servicos_painel_refresh(ARRAY(SELECT id FROM servicos WHERE cliente_id = NEW.id));
  ELSIF TG_TABLE_NAME = 'tipos_servicos' THEN
    PERFORM servicos_painel_refresh(ARRAY(SELECT id FROM servicos WHERE tipo_servico_id = NEW.id));
  ELSIF TG_TABLE_NAME = 'status' THEN
    PERFORM servicos_painel_refresh(ARRAY(SELECT id FROM servicos WHERE status_id = NEW.id));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER servicos_painel_clientes AFTER UPDATE OF nome ON clientes
  FOR EACH ROW WHEN (OLD.nome IS DISTINCT FROM NEW.nome)
  EXECUTE FUNCTION servicos_painel_dependencia();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_tipos AFTER UPDATE OF tipo, categoria_id ON tipos_servicos
  FOR EACH ROW WHEN (OLD.tipo IS DISTINCT FROM NEW.tipo OR OLD.categoria_id IS DISTINCT FROM NEW.categoria_id)
  EXECUTE FUNCTION servicos_painel_dependencia();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_status AFTER UPDATE OF nome ON status
  FOR EACH ROW WHEN (OLD.nome IS DISTINCT FROM NEW.nome)
  EXECUTE FUNCTION servicos_painel_dependencia();
--> statement-breakpoint

-- Services that exist before this migration.
SELECT servicos_painel_refresh(ARRAY(SELECT id FROM servicos));
