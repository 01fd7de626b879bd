CREATE TABLE "documento_versoes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"documento_id" uuid NOT NULL,
	"caminho" text NOT NULL,
	"tamanho" bigint,
	"sha256" text,
	"enviado_por" text NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"atual" boolean DEFAULT true NOT NULL,
	"estado" text,
	"motivo" text,
	"revisado_por" text,
	"revisado_em" timestamp with time zone,
	CONSTRAINT "documento_versoes_caminho_unique" UNIQUE("caminho"),
	CONSTRAINT "documento_versoes_enviado_por_check" CHECK ("documento_versoes"."enviado_por" in ('admin', 'cliente')),
	CONSTRAINT "documento_versoes_estado_check" CHECK ("documento_versoes"."estado" in ('enviado', 'aprovado', 'rejeitado', 'substituido'))
);
--> statement-breakpoint
DROP INDEX "documento_servico_tipo_idx";--> statement-breakpoint
ALTER TABLE "servicos_painel" ADD COLUMN "documentos_em_analise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_documento_id_servicos_tipos_documentos_id_fk" FOREIGN KEY ("documento_id") REFERENCES "public"."servicos_tipos_documentos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_revisado_por_user_id_fk" FOREIGN KEY ("revisado_por") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documento_versoes_atual_idx" ON "documento_versoes" USING btree ("documento_id") WHERE "documento_versoes"."atual";--> statement-breakpoint
CREATE INDEX "documento_versoes_documento_idx" ON "documento_versoes" USING btree ("documento_id","created_at");--> statement-breakpoint
CREATE INDEX "documento_versoes_em_analise_idx" ON "documento_versoes" USING btree ("created_at","id") WHERE "documento_versoes"."estado" = 'enviado';--> statement-breakpoint
CREATE INDEX "servicos_painel_em_analise_idx" ON "servicos_painel" USING btree ("created_at","servico_id") WHERE "servicos_painel"."documentos_em_analise" > 0;--> statement-breakpoint

-- Hand-written: existing documents become version 1 of themselves. A client's upload
-- is recognised by its key (SPEC §3: userId/servicoId/tipoDocumentoId/timestamp-name, four
-- segments; the consultancy's are servicoId/timestamp-name), since older rows
-- carry the default 'admin'. A client's file keeps the review its SPEC status named, if any.
UPDATE "servicos_tipos_documentos" SET "enviado_por" = 'cliente'
WHERE array_length(string_to_array("caminho_arquivo", '/'), 1) = 4;
--> statement-breakpoint
INSERT INTO "documento_versoes" ("documento_id", "caminho", "tamanho", "enviado_por", "created_at", "atual", "estado")
SELECT d."id", d."caminho_arquivo", d."tamanho", d."enviado_por", d."data_envio", true,
       CASE WHEN d."enviado_por" = 'admin' THEN NULL
            WHEN lower(st."nome") LIKE '%aprovado%' THEN 'aprovado'
            WHEN lower(st."nome") LIKE '%rejeitado%' THEN 'rejeitado'
            ELSE 'enviado' END
FROM "servicos_tipos_documentos" d
LEFT JOIN "status" st ON st."id" = d."status_id";
--> statement-breakpoint
UPDATE "servicos_tipos_documentos" SET "status_id" = NULL WHERE "enviado_por" = 'cliente';
--> statement-breakpoint
CREATE UNIQUE INDEX "documento_servico_tipo_lado_idx" ON "servicos_tipos_documentos" USING btree ("servico_id","tipo_documento_id","enviado_por");--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" DROP COLUMN "caminho_arquivo";--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" DROP COLUMN "data_envio";--> statement-breakpoint
ALTER TABLE "servicos_tipos_documentos" DROP COLUMN "tamanho";--> statement-breakpoint

-- The dashboard's 'Aguardando análise': documents waiting for review per service, recounted for
-- the services a statement on documento_versoes touched (a handful of rows per upload or review).
CREATE OR REPLACE FUNCTION servicos_painel_em_analise(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  UPDATE servicos_painel p SET documentos_em_analise = n.total
  FROM (
    SELECT s.id, (SELECT count(*)::int FROM servicos_tipos_documentos d
                  JOIN documento_versoes v ON v.documento_id = d.id
                  WHERE d.servico_id = s.id AND v.estado = 'enviado') AS total
    FROM unnest(ids) AS s(id)
  ) n
  WHERE p.servico_id = n.id AND p.documentos_em_analise IS DISTINCT FROM n.total
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documento_versoes_painel() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM servicos_painel_em_analise(array(
      SELECT DISTINCT d.servico_id FROM novos v JOIN servicos_tipos_documentos d ON d.id = v.documento_id
      WHERE v.estado = 'enviado' ORDER BY 1));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM servicos_painel_em_analise(array(
      SELECT DISTINCT d.servico_id FROM antigos v JOIN servicos_tipos_documentos d ON d.id = v.documento_id
      WHERE v.estado = 'enviado' ORDER BY 1));
  ELSE
    PERFORM servicos_painel_em_analise(array(
      SELECT DISTINCT d.servico_id FROM novos n JOIN antigos o ON o.id = n.id
      JOIN servicos_tipos_documentos d ON d.id = n.documento_id
      WHERE n.estado IS DISTINCT FROM o.estado AND 'enviado' IN (n.estado, o.estado) ORDER BY 1));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documento_versoes_painel_ins AFTER INSERT ON documento_versoes
REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION documento_versoes_painel();
--> statement-breakpoint
CREATE TRIGGER documento_versoes_painel_upd AFTER UPDATE ON documento_versoes
REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION documento_versoes_painel();
--> statement-breakpoint
CREATE TRIGGER documento_versoes_painel_del AFTER DELETE ON documento_versoes
REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION documento_versoes_painel();
--> statement-breakpoint
SELECT servicos_painel_em_analise(array(SELECT id FROM servicos));
