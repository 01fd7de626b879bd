CREATE TABLE "busca_digitos_servicos" (
	"prefixo" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"servico_id" uuid NOT NULL,
	CONSTRAINT "busca_digitos_servicos_prefixo_created_at_servico_id_pk" PRIMARY KEY("prefixo","created_at","servico_id")
);
--> statement-breakpoint
-- A search of four digits alone ('4217', '2024': a protocol's number as people remember it) read
-- every match from the GIN index and sorted them for each page: 148 rows of the read model for
-- '4217' at 1,000,000 services (5 at 100,000), each a block read from disk the first time.
-- Kept here: each service with each of its four-digit starts of `busca_digitos` (migration
-- 0045), with its creation, so a page is the key's newest entries in the dashboard's order
-- (newest first), ten of them, however many services have those digits. Kept by the words'
-- statement triggers (0016), after the starts' counts, in key order, in the writing transaction.
-- Three digits stay with their counts only: a page of them reads its newest months (migration
-- 0044), and their entries would double the table.
CREATE OR REPLACE FUNCTION busca_palavras_ins() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM busca_palavras_aplica('{}', ARRAY(SELECT unnest(busca_palavras_de(termos)) FROM novos));
  PERFORM busca_digitos_aplica('{}', ARRAY(SELECT unnest(busca_digitos_de(termos)) FROM novos));
  INSERT INTO busca_digitos_servicos (prefixo, created_at, servico_id)
  SELECT d, n.created_at, n.servico_id FROM novos n, unnest(busca_digitos_de(n.termos)) d
  WHERE length(d) = 4 ORDER BY 1, 2, 3;
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
  -- Only the entries that change: a client renamed keeps its services' digits.
  DELETE FROM busca_digitos_servicos b USING (
    SELECT d, o.created_at, o.servico_id FROM antigos o JOIN novos n USING (servico_id),
      unnest(busca_digitos_de(o.termos)) d
    WHERE length(d) = 4 AND (o.termos, o.created_at) IS DISTINCT FROM (n.termos, n.created_at)
    EXCEPT
    SELECT d, n.created_at, n.servico_id FROM novos n, unnest(busca_digitos_de(n.termos)) d
    WHERE length(d) = 4) x(d, created_at, servico_id)
  WHERE b.prefixo = x.d AND b.created_at = x.created_at AND b.servico_id = x.servico_id;
  INSERT INTO busca_digitos_servicos (prefixo, created_at, servico_id)
  SELECT d, n.created_at, n.servico_id FROM antigos o JOIN novos n USING (servico_id),
    unnest(busca_digitos_de(n.termos)) d
  WHERE length(d) = 4 AND (o.termos, o.created_at) IS DISTINCT FROM (n.termos, n.created_at)
  EXCEPT
  SELECT d, o.created_at, o.servico_id FROM antigos o, unnest(busca_digitos_de(o.termos)) d
  WHERE length(d) = 4
  ORDER BY 1, 2, 3;
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
  DELETE FROM busca_digitos_servicos b USING antigos o, unnest(busca_digitos_de(o.termos)) d
  WHERE length(d) = 4 AND b.prefixo = d AND b.created_at = o.created_at AND b.servico_id = o.servico_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO busca_digitos_servicos (prefixo, created_at, servico_id)
SELECT d, p.created_at, p.servico_id FROM servicos_painel p, unnest(busca_digitos_de(p.termos)) d
WHERE length(d) = 4 ORDER BY 1, 2, 3;
--> statement-breakpoint
-- The data version (migration 0036): written only with the read model, which moves it already;
-- its own triggers keep the rule whole.
CREATE TRIGGER busca_digitos_servicos_versao_ins AFTER INSERT ON busca_digitos_servicos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_servicos_versao_upd AFTER UPDATE ON busca_digitos_servicos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_servicos_versao_del AFTER DELETE ON busca_digitos_servicos
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_digitos_servicos_versao_trunc AFTER TRUNCATE ON busca_digitos_servicos
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
