CREATE TABLE "servicos_contagem_dia" (
	"dia" timestamp with time zone NOT NULL,
	"categoria_id" uuid,
	"status_id" uuid,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_dia_chave" UNIQUE NULLS NOT DISTINCT("dia","categoria_id","status_id")
);
--> statement-breakpoint
CREATE INDEX "servicos_contagem_criacao_mes_idx" ON "servicos_contagem_criacao" USING btree ("mes");
--> statement-breakpoint
-- A typed page number (`?page=9000`) found its month in the per-month counts, then skipped up
-- to a month of rows (6,600 for page 9000 at 100,000 services; index-only only once the table
-- was vacuumed, else a heap visit each). The same counts per UTC day, maintained by the same
-- statement triggers in the writing transaction, leave at most one day's rows to skip. The
-- month is found reading the months newest first on `mes` (the index above), and stops there.
CREATE OR REPLACE FUNCTION servicos_contagem_aplica(antigos_json jsonb, novos_json jsonb) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  WITH linhas AS (
    SELECT r.categoria_id, r.status_id, r.arquivado, r.vigencia_fim, r.created_at, -1 AS n
    FROM jsonb_to_recordset(antigos_json) AS r(categoria_id uuid, status_id uuid, arquivado boolean, vigencia_fim date, created_at timestamptz)
    UNION ALL
    SELECT r.categoria_id, r.status_id, r.arquivado, r.vigencia_fim, r.created_at, 1
    FROM jsonb_to_recordset(novos_json) AS r(categoria_id uuid, status_id uuid, arquivado boolean, vigencia_fim date, created_at timestamptz)
  ),
  por_status AS (
    INSERT INTO servicos_contagem AS c (categoria_id, status_id, total)
    SELECT categoria_id, status_id, sum(n) FROM linhas
    GROUP BY categoria_id, status_id HAVING sum(n) <> 0
    ORDER BY categoria_id, status_id
    ON CONFLICT (categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  ),
  por_dia AS (
    INSERT INTO servicos_contagem_dia AS c (dia, categoria_id, status_id, total)
    SELECT date_trunc('day', created_at, 'UTC'), categoria_id, status_id, sum(n) FROM linhas
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (dia, categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  ),
  por_criacao AS (
    INSERT INTO servicos_contagem_criacao AS c (categoria_id, status_id, mes, total)
    SELECT categoria_id, status_id, date_trunc('month', created_at, 'UTC'), sum(n) FROM linhas
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (categoria_id, status_id, mes) DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_mes AS c (categoria_id, status_id, arquivado, mes, total)
  SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date, sum(n) FROM linhas
  GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (categoria_id, status_id, arquivado, mes) DO UPDATE SET total = c.total + excluded.total;
  UPDATE servicos_painel_versao SET versao = versao + 1 WHERE parte = pg_backend_pid() % 16;
END
$$;
--> statement-breakpoint
INSERT INTO servicos_contagem_dia (dia, categoria_id, status_id, total)
SELECT date_trunc('day', created_at, 'UTC'), categoria_id, status_id, count(*)
FROM servicos_painel GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
--> statement-breakpoint
-- The data version (migration 0036): every table moves it but those listed there. This one is
-- written only with the read model, which moves it already; its own triggers keep the rule whole.
CREATE TRIGGER servicos_contagem_dia_versao_ins AFTER INSERT ON servicos_contagem_dia
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_dia_versao_upd AFTER UPDATE ON servicos_contagem_dia
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_dia_versao_del AFTER DELETE ON servicos_contagem_dia
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER servicos_contagem_dia_versao_trunc AFTER TRUNCATE ON servicos_contagem_dia
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
-- A protocol pasted with its year ('2024/0015', '0011/2026', 'PRT-2024-0001'): each pair of
-- digit words in a row in the text gets a word of its own, so the GIN index finds the pair in
-- one narrow lookup instead of reading every service of a year (a sixth of them) or every word
-- that starts with a common serial. Two kinds, so that either side of a pair may be the one
-- typed short (the typed part must have the four digits a word keeps):
--   '2024.0015': the first word's first four digits, '.', the second word's leading digits;
--   '0015/2024': the second word's first four digits, '/', the first word's leading digits.
-- Nobody can type them ('.' and '/' split what is typed, palavrasDaBusca), PostgreSQL's parser
-- reads each as one word (a number, a path) in to_tsquery, and a typed prefix of one is a
-- prefix of a real word of the same service, so no search finds more than before. They sit at
-- the last position (16383), next to no word, so no phrase ('2024:* <-> 0015:*') matches across
-- them. The dashboard asks the index for the pair and tests the whole search on each row found
-- (painel-busca.ts, `Contagem.indice`). In PL/pgSQL: the same words as 0007's SQL function plus
-- the pairs, in about the time 0007's took (a SQL version with the pairs took three times as long
-- for every service written).
CREATE OR REPLACE FUNCTION portal_termos(nome text, tipo text, protocolo text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  t text := regexp_replace(
    lower(public.unaccent('public.unaccent'::regdictionary,
      coalesce(nome, '') || ' ' || coalesce(tipo, '') || ' ' || coalesce(protocolo, ''))),
    '[^a-z0-9]+', ' ', 'g');
  caudas text := '';
  w text[];
  pares text := '';
  d1 text;
  d2 text;
BEGIN
  -- Every tail of at least two digits of the protocol's digit groups of three or more (0007).
  IF protocolo ~ '[0-9]{3}' THEN
    SELECT coalesce(string_agg(DISTINCT substr(d, i), ' '), '') INTO caudas
    FROM regexp_split_to_table(protocolo, '[^0-9]+') d, generate_series(2, length(d) - 1) i
    WHERE length(d) > 2;
  END IF;
  -- The pairs: only a text with a word that starts with a digit before one that does.
  IF t ~ '[0-9][a-z0-9]* [0-9]' THEN
    w := string_to_array(btrim(t), ' ');
    FOR i IN 1 .. cardinality(w) - 1 LOOP
      d1 := substring(w[i] from '^[0-9]+');
      d2 := substring(w[i + 1] from '^[0-9]+');
      IF d1 IS NOT NULL AND d2 IS NOT NULL THEN
        IF length(d1) >= 4 THEN pares := pares || ' ' || quote_literal(left(d1, 4) || '.' || d2) || ':16383'; END IF;
        IF length(d2) >= 4 THEN pares := pares || ' ' || quote_literal(left(d2, 4) || '/' || d1) || ':16383'; END IF;
      END IF;
    END LOOP;
  END IF;
  RETURN to_tsvector('simple'::regconfig, t || ' ' || caudas) || pares::tsvector;
END
$$;
--> statement-breakpoint
UPDATE servicos_painel p SET termos = portal_termos(c.nome, t.tipo, s.protocolo)
FROM servicos s JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
WHERE s.id = p.servico_id AND p.termos IS DISTINCT FROM portal_termos(c.nome, t.tipo, s.protocolo);
