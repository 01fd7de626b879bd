CREATE TABLE "documentos_palavras" (
	"palavra" text COLLATE "C" PRIMARY KEY NOT NULL,
	"documentos" integer NOT NULL
);
--> statement-breakpoint
-- Custom SQL (issue 33): the analysts' document search at 1,000,000 services. As the dashboard's
-- words (migration 0016): every word that begins with a letter of the documents with a file, with
-- the number of documents it is a word of, kept by a statement trigger on
-- servicos_tipos_documentos in the writing transaction. A typed prefix read here becomes the words
-- that exist with that start, so the GIN index looks up whole words and skips through their lists
-- ('certidao 4217' read every document of 'certidao:*' into a bitmap: 1.25 s at 1,000,000
-- services), and a one-word search more common than the search's limit needs no count. Words
-- starting with a digit (file numbers) are not kept; they stay prefixes. A word no document has
-- any more stays with 0 (never deleted).
CREATE FUNCTION documentos_palavras_aplica(antes text[], depois text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO documentos_palavras AS b (palavra, documentos)
  SELECT w, sum(k) FROM (
    SELECT unnest(antes) AS w, -1 AS k
    UNION ALL
    SELECT unnest(depois), 1
  ) d
  GROUP BY w HAVING sum(k) <> 0 ORDER BY w
  ON CONFLICT (palavra) DO UPDATE SET documentos = b.documentos + excluded.documentos
$$;
--> statement-breakpoint
-- The words of the rows a statement added or removed that have a file (`enviado_em`); an UPDATE
-- passes only the rows whose words or file changed (most change the visibility or the type's
-- order).
CREATE FUNCTION documentos_palavras_contar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM documentos_palavras_aplica('{}', ARRAY(
      SELECT unnest(busca_palavras_de(n.termos)) FROM palavras_novos n WHERE n.enviado_em IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM documentos_palavras_aplica(ARRAY(
      SELECT unnest(busca_palavras_de(o.termos)) FROM palavras_antigos o WHERE o.enviado_em IS NOT NULL), '{}');
  ELSE
    PERFORM documentos_palavras_aplica(
      ARRAY(SELECT unnest(busca_palavras_de(o.termos)) FROM palavras_antigos o JOIN palavras_novos n USING (id)
            WHERE o.enviado_em IS NOT NULL
              AND (o.termos, o.enviado_em IS NULL) IS DISTINCT FROM (n.termos, n.enviado_em IS NULL)),
      ARRAY(SELECT unnest(busca_palavras_de(n.termos)) FROM palavras_antigos o JOIN palavras_novos n USING (id)
            WHERE n.enviado_em IS NOT NULL
              AND (o.termos, o.enviado_em IS NULL) IS DISTINCT FROM (n.termos, n.enviado_em IS NULL)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER servicos_tipos_documentos_palavras_ins AFTER INSERT ON servicos_tipos_documentos
  REFERENCING NEW TABLE AS palavras_novos FOR EACH STATEMENT EXECUTE FUNCTION documentos_palavras_contar();
--> statement-breakpoint
CREATE TRIGGER servicos_tipos_documentos_palavras_upd AFTER UPDATE ON servicos_tipos_documentos
  REFERENCING OLD TABLE AS palavras_antigos NEW TABLE AS palavras_novos
  FOR EACH STATEMENT EXECUTE FUNCTION documentos_palavras_contar();
--> statement-breakpoint
CREATE TRIGGER servicos_tipos_documentos_palavras_del AFTER DELETE ON servicos_tipos_documentos
  REFERENCING OLD TABLE AS palavras_antigos FOR EACH STATEMENT EXECUTE FUNCTION documentos_palavras_contar();
--> statement-breakpoint
INSERT INTO documentos_palavras (palavra, documentos)
SELECT w, count(*) FROM servicos_tipos_documentos d, unnest(busca_palavras_de(d.termos)) w
WHERE d.enviado_em IS NOT NULL GROUP BY w;
--> statement-breakpoint
-- The data version (versao-dados.ts): written only with the documents, which move it already;
-- its own triggers keep the rule whole.
CREATE TRIGGER documentos_palavras_versao_ins AFTER INSERT ON documentos_palavras
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER documentos_palavras_versao_upd AFTER UPDATE ON documentos_palavras
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER documentos_palavras_versao_del AFTER DELETE ON documentos_palavras
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER documentos_palavras_versao_trunc AFTER TRUNCATE ON documentos_palavras
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
