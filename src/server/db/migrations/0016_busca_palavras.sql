-- The dashboard search at 1,000,000 services: every word the search indexes that begins
-- with a letter, with the number of services it is a word of, kept by statement triggers on
-- servicos_painel in the writing transaction (like the counts of migrations 0003 and 0007).
--
-- A typed word is a prefix ('ana' finds 'ana' and 'anastacia'). Read here, it becomes the words
-- that exist with that start, so the GIN index looks up whole words (it skips through their lists)
-- instead of merging every word of the range (a partial match: 20-30 ms for two common words at
-- 1,000,000 services); and a one-word search's total needs no count when a word of it alone is
-- in more than 10,000 services ("mais de 10.000") or when the prefix is one word (its count).
-- Words starting with a digit (protocol tails: millions at that scale) are not kept; they stay
-- prefixes. A word no service has any more stays with 0 (never deleted: no churn on renames).
CREATE TABLE "busca_palavras" (
	"palavra" text COLLATE "C" PRIMARY KEY NOT NULL,
	"servicos" integer NOT NULL
);
--> statement-breakpoint

-- +1 for each word of the rows a statement added, -1 for each word of the rows it removed (the
-- letter words of their termos); rows whose words did not change (status, dates, documents) cost
-- a comparison. In word order, so concurrent writers lock the same rows in the same order.
CREATE OR REPLACE FUNCTION busca_palavras_aplica(antes text[], depois text[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO busca_palavras AS b (palavra, servicos)
  SELECT w, sum(k) FROM (
    SELECT unnest(antes) AS w, -1 AS k
    UNION ALL
    SELECT unnest(depois), 1
  ) d
  GROUP BY w HAVING sum(k) <> 0 ORDER BY w
  ON CONFLICT (palavra) DO UPDATE SET servicos = b.servicos + excluded.servicos
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_palavras_de(termos tsvector) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(w), '{}') FROM unnest(tsvector_to_array(termos)) w WHERE w ~ '^[a-z]'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_palavras_ins() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM busca_palavras_aplica('{}', ARRAY(SELECT unnest(busca_palavras_de(termos)) FROM novos));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_palavras_upd() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM busca_palavras_aplica(
    ARRAY(SELECT unnest(busca_palavras_de(o.termos)) FROM antigos o JOIN novos n USING (servico_id)
          WHERE o.termos IS DISTINCT FROM n.termos),
    ARRAY(SELECT unnest(busca_palavras_de(n.termos)) FROM antigos o JOIN novos n USING (servico_id)
          WHERE o.termos IS DISTINCT FROM n.termos));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_palavras_del() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM busca_palavras_aplica(ARRAY(SELECT unnest(busca_palavras_de(termos)) FROM antigos), '{}');
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO busca_palavras (palavra, servicos)
SELECT w, count(*) FROM servicos_painel p, unnest(busca_palavras_de(p.termos)) w GROUP BY w;
--> statement-breakpoint
CREATE TRIGGER servicos_painel_palavras_ins AFTER INSERT ON servicos_painel
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION busca_palavras_ins();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_palavras_upd AFTER UPDATE ON servicos_painel
  REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION busca_palavras_upd();
--> statement-breakpoint
CREATE TRIGGER servicos_painel_palavras_del AFTER DELETE ON servicos_painel
  REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION busca_palavras_del();
