ALTER TABLE "documento_versoes" DROP CONSTRAINT "documento_versoes_caminho_unique";--> statement-breakpoint
ALTER TABLE "documento_versoes" DROP CONSTRAINT "documento_versoes_estado_check";--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD COLUMN "reaproveitada" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "servicos" ADD COLUMN "renovacao_de" uuid;--> statement-breakpoint
ALTER TABLE "tipos_documentos" ADD COLUMN "validade_dias" integer;--> statement-breakpoint
ALTER TABLE "servicos" ADD CONSTRAINT "servicos_renovacao_de_servicos_id_fk" FOREIGN KEY ("renovacao_de") REFERENCES "public"."servicos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documento_versoes_caminho_idx" ON "documento_versoes" USING btree ("caminho");--> statement-breakpoint
CREATE UNIQUE INDEX "servicos_renovacao_de_idx" ON "servicos" USING btree ("renovacao_de");--> statement-breakpoint
ALTER TABLE "documento_versoes" ADD CONSTRAINT "documento_versoes_estado_check" CHECK ("documento_versoes"."estado" in ('enviado', 'aprovado', 'rejeitado', 'substituido', 'vencido'));--> statement-breakpoint
ALTER TABLE "tipos_documentos" ADD CONSTRAINT "tipos_documentos_validade_check" CHECK ("tipos_documentos"."validade_dias" between 1 and 36500);--> statement-breakpoint
-- A licence that does not expire on its end date (LC 140/2011, art. 14, §4º): its renewal was
-- filed on time (status 'Em renovação') or its renewal got its own validity ('Renovada'). The
-- dashboard's read model keeps no end date for it, so 'Próximos a vencer' (and its per-month
-- counts) never lists it; the row still shows the service's own end date (servicos), and Dias
-- Restantes reads "Prorrogada" / "Renovada" (src/shared/dias-restantes.ts, `naoVence`).
CREATE OR REPLACE FUNCTION servicos_painel_refresh(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO servicos_painel AS p
    (servico_id, created_at, termos, categoria_id, status_id, arquivado, vigencia_fim)
  SELECT s.id, s.created_at, portal_termos(c.nome, t.tipo, s.protocolo),
         t.categoria_id, s.status_id,
         coalesce(portal_normaliza(st.nome) = 'arquivado', false),
         CASE WHEN portal_normaliza(st.nome) IN ('em renovacao', 'renovada') THEN NULL
              ELSE s.vigencia_fim END
  FROM servicos s
  JOIN clientes c ON c.id = s.cliente_id
  JOIN tipos_servicos t ON t.id = s.tipo_servico_id
  LEFT JOIN status st ON st.id = s.status_id
  WHERE s.id = ANY(ids)
  ORDER BY s.id
  ON CONFLICT (servico_id) DO UPDATE SET
    created_at = excluded.created_at, termos = excluded.termos, categoria_id = excluded.categoria_id,
    status_id = excluded.status_id, arquivado = excluded.arquivado, vigencia_fim = excluded.vigencia_fim
  WHERE (p.created_at, p.termos, p.categoria_id, p.status_id, p.arquivado, p.vigencia_fim)
    IS DISTINCT FROM (excluded.created_at, excluded.termos, excluded.categoria_id,
                      excluded.status_id, excluded.arquivado, excluded.vigencia_fim)
$$;
--> statement-breakpoint
-- The system status of a licence whose renewal got its validity (seed.ts STATUS_INICIAIS), for
-- installations that already have their statuses.
INSERT INTO "status" ("nome", "descricao")
SELECT 'Renovada', 'A renovação desta licença já tem vigência: este serviço não vence mais.'
WHERE EXISTS (SELECT 1 FROM "status")
ON CONFLICT DO NOTHING;--> statement-breakpoint
SELECT servicos_painel_refresh(ARRAY(
  SELECT s.id FROM servicos s JOIN status st ON st.id = s.status_id
  WHERE portal_normaliza(st.nome) IN ('em renovacao', 'renovada')));
