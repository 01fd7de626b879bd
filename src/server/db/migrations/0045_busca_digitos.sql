CREATE TABLE "busca_digitos" (
	"prefixo" text PRIMARY KEY NOT NULL,
	"servicos" integer NOT NULL
);
--> statement-breakpoint
-- A search of three or four digits alone ('421', '2024': a protocol's number as people remember
-- it) counted its matches before its page: up to 10,001 rows, each read from the table (the GIN
-- index rechecks a prefix), 50-270 ms at 1,000,000 services, again after every write. Kept here:
-- the first three and the first four characters of each word that begins with a digit (the
-- protocol's numbers, their tails of migration 0007, the pairs of 0039), where they are all
-- digits, each with the number of services that have a word with that start: the services
-- `'421':*` finds, exactly. At most 11,000 rows. Kept by the words' statement triggers (0016),
-- after the words, in prefix order, in the writing transaction; a start no service has any more
-- stays with 0 (never deleted, as the words).
CREATE OR REPLACE FUNCTION busca_digitos_de(termos tsvector) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(DISTINCT p), '{}')
  FROM unnest(tsvector_to_array(termos)) w, LATERAL (VALUES (left(w, 3)), (left(w, 4))) v(p)
  WHERE w ~ '^[0-9]' AND p ~ '^[0-9]{3,4}$'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_digitos_aplica(antes text[], depois text[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO busca_digitos AS b (prefixo, servicos)
  SELECT p, sum(k) FROM (
    SELECT unnest(antes) AS p, -1 AS k
    UNION ALL
    SELECT unnest(depois), 1
  ) d
  GROUP BY p HAVING sum(k) <> 0 ORDER BY p
  ON CONFLICT (prefixo) DO UPDATE SET servicos = b.servicos + excluded.servicos
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION busca_palavras_ins() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM busca_palavras_aplica('{}', ARRAY(SELECT unnest(busca_palavras_de(termos)) FROM novos));
  PERFORM busca_digitos_aplica('{}', ARRAY(SELECT unnest(busca_digitos_de(termos)) FROM novos));
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
  PERFORM busca_digitos_aplica(
    ARRAY(SELECT unnest(busca_digitos_de(o.termos)) FROM antigos o JOIN novos n USING (servico_id)
          WHERE o.termos IS DISTINCT FROM n.termos),
    ARRAY(SELECT unnest(busca_digitos_de(n.termos)) FROM antigos o JOIN novos n USING (servico_id)
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
  PERFORM busca_digitos_aplica(ARRAY(SELECT unnest(busca_digitos_de(termos)) FROM antigos), '{}');
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO busca_digitos (prefixo, servicos)
SELECT d, count(*) FROM servicos_painel p, unnest(busca_digitos_de(p.termos)) d GROUP BY d;
--> statement-breakpoint
-- The data version (migration 0036): written only with the read model, which moves it already;
-- its own triggers keep the rule whole.
CREATE TRIGGER busca_digitos_versao_ins AFTER INSERT ON busca_digitos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_versao_upd AFTER UPDATE ON busca_digitos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_versao_del AFTER DELETE ON busca_digitos
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_versao_trunc AFTER TRUNCATE ON busca_digitos
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
