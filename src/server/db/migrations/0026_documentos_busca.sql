ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "termos" "tsvector";--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" ADD COLUMN "enviado_em" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documentos_termos_idx" ON "servicos_tipos_documentos" USING gin ("termos") WITH (gin_pending_list_limit=64);--> statement-breakpoint
CREATE INDEX "documentos_enviado_idx" ON "servicos_tipos_documentos" USING btree ("enviado_em" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "servicos_tipos_documentos"."enviado_em" is not null;--> statement-breakpoint
-- The analysts' document search (GET /api/admin/documentos/busca): each document's words, its
-- type and its current file's name without the extension (split and prefixed as the dashboard's
-- `portal_termos` does), and the time that file was sent, kept here by triggers so a search
-- reads one GIN index.
CREATE OR REPLACE FUNCTION portal_arquivo_nome(caminho text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(caminho, '^.*/', ''),
           '^[0-9]+(\.[0-9a-f]+)?-', ''), '\.[A-Za-z0-9]{1,5}$', '')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_busca_refresh(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  UPDATE servicos_tipos_documentos d
     SET termos = n.termos, enviado_em = n.enviado_em
    FROM (SELECT d2.id,
                 portal_termos(t.tipo, portal_arquivo_nome(v.caminho), NULL) AS termos,
                 v.created_at AS enviado_em
            FROM servicos_tipos_documentos d2
            JOIN tipos_documentos t ON t.id = d2.tipo_documento_id
            LEFT JOIN documento_versoes v ON v.documento_id = d2.id AND v.atual
           WHERE d2.id = ANY(ids)) n
   WHERE d.id = n.id
     AND (d.termos IS DISTINCT FROM n.termos OR d.enviado_em IS DISTINCT FROM n.enviado_em);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_busca_versao() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM documentos_busca_refresh(ARRAY[NEW.documento_id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documento_versoes_busca AFTER INSERT OR UPDATE OF atual, caminho ON documento_versoes
  FOR EACH ROW WHEN (NEW.atual) EXECUTE FUNCTION documentos_busca_versao();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_busca_documento() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM documentos_busca_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER servicos_tipos_documentos_busca AFTER INSERT OR UPDATE OF tipo_documento_id ON servicos_tipos_documentos
  FOR EACH ROW EXECUTE FUNCTION documentos_busca_documento();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documentos_busca_tipo() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM documentos_busca_refresh(ARRAY(SELECT id FROM servicos_tipos_documentos WHERE tipo_documento_id = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tipos_documentos_busca AFTER UPDATE OF tipo ON tipos_documentos
  FOR EACH ROW WHEN (OLD.tipo IS DISTINCT FROM NEW.tipo) EXECUTE FUNCTION documentos_busca_tipo();
--> statement-breakpoint
SELECT documentos_busca_refresh(ARRAY(SELECT id FROM servicos_tipos_documentos));
