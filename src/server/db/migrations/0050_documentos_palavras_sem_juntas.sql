-- The words of the documents (0041) keep no pair words: since 0047 `portal_termos` adds a pair of
-- a word and the digits after it ('social.1096', for the dashboard's protocols), and the
-- documents' triggers counted them as words. The document search never asks them, but a prefix's
-- range held them all: 'contrato' was 4,601 words at the bench's 1,000,000 services (46,013 words
-- in all, 45,999 of them pairs), so it stayed a prefix for the GIN index (a partial match of every
-- pair), and reading the range took 10-17 ms. The pairs stay in each document's `termos`.
CREATE OR REPLACE FUNCTION documentos_palavras_aplica(antes text[], depois text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO documentos_palavras AS b (palavra, documentos)
  SELECT w, sum(k) FROM (
    SELECT unnest(antes) AS w, -1 AS k
    UNION ALL
    SELECT unnest(depois), 1
  ) d
  WHERE strpos(w, '.') = 0
  GROUP BY w HAVING sum(k) <> 0 ORDER BY w
  ON CONFLICT (palavra) DO UPDATE SET documentos = b.documentos + excluded.documentos
$$;
--> statement-breakpoint
DELETE FROM documentos_palavras WHERE strpos(palavra, '.') > 0;
