-- Each document also keeps every pair of its words that begin with a letter and have two
-- characters or more, in the "C" order, joined by a '.' ('contrato.laudo'), in a column and a GIN
-- index of their own. Two common words seldom or never in one document ('contrato laudo': 200,000
-- documents each at 1,000,000 services, none with both) made the GIN index read both words' whole
-- lists to find none: 32.5 ms of the database's time a request, 4.7 at 100,000. Their pair's list
-- holds only the documents that have both. Kept apart from `termos` so that the walk's index,
-- which carries `termos` (0049), does not grow with them (in `termos`, the walk's 8,008 tests cost
-- one and a half to two times as much).
ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "pares" "tsvector";--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_pares(termos tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT coalesce(array_to_tsvector(array_agg(a.lexeme || '.' || b.lexeme)), ''::tsvector)
    FROM unnest(termos) a JOIN unnest(termos) b ON a.lexeme COLLATE "C" < b.lexeme COLLATE "C"
   WHERE a.lexeme ~ '^[a-z][a-z0-9]+$' AND b.lexeme ~ '^[a-z][a-z0-9]+$'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_busca_refresh(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  UPDATE servicos_tipos_documentos d
     SET termos = n.termos, pares = documentos_pares(n.termos), enviado_em = n.enviado_em
    FROM (SELECT d2.id,
                 portal_termos(t.tipo, portal_arquivo_nome(v.caminho), NULL) AS termos,
                 v.created_at AS enviado_em
            FROM servicos_tipos_documentos d2
            JOIN tipos_documentos t ON t.id = d2.tipo_documento_id
            LEFT JOIN documento_versoes v ON v.documento_id = d2.id AND v.atual
           WHERE d2.id = ANY(ids)) n
   WHERE d.id = n.id
     AND (d.termos IS DISTINCT FROM n.termos OR d.enviado_em IS DISTINCT FROM n.enviado_em
          OR d.pares IS DISTINCT FROM documentos_pares(n.termos));
$$;
--> statement-breakpoint
SELECT documentos_busca_refresh(ARRAY(SELECT id FROM servicos_tipos_documentos));
--> statement-breakpoint
CREATE INDEX "documentos_pares_idx" ON "servicos_tipos_documentos" USING gin ("pares") WITH (gin_pending_list_limit=64);
