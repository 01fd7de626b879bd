-- The dashboard's words by month. A search in a few thousand services read all of them from the
-- GIN index, then sorted them for its ten newest: at 1,000,000 services a first name with a
-- surname (~2,000 matches) read ten times the rows it read at 100,000. Its newest months hold
-- its page, and their lists do not grow with the years behind them: this index has each word
-- that begins with a letter (the words of `busca_palavras`) once more, prefixed with the row's
-- UTC month of creation ('202511.silva'); the page asks it for the newest months only
-- (`painel.queries.ts`), and tests the search itself on each row found.
CREATE OR REPLACE FUNCTION portal_termos_mes(termos tsvector, criado timestamptz) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_to_tsvector(coalesce(array_agg(m.mes || w), '{}'))
  FROM (SELECT to_char(criado AT TIME ZONE 'UTC', 'YYYYMM') || '.' AS mes) m,
       unnest(tsvector_to_array(termos)) w
  WHERE w ~ '^[a-z]'
$$;--> statement-breakpoint
CREATE INDEX "servicos_painel_termos_mes_idx" ON "servicos_painel" USING gin (portal_termos_mes("termos", "created_at")) WITH (gin_pending_list_limit=64);
