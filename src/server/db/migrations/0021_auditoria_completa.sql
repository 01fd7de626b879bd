ALTER TABLE "auditoria" DROP CONSTRAINT "auditoria_acao_check";--> statement-breakpoint
ALTER TABLE "notificacoes" ADD COLUMN "documento_id" uuid;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD COLUMN "aviso_id" uuid;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_documento_id_servicos_tipos_documentos_id_fk" FOREIGN KEY ("documento_id") REFERENCES "public"."servicos_tipos_documentos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificacoes" ADD CONSTRAINT "notificacoes_aviso_id_avisos_id_fk" FOREIGN KEY ("aviso_id") REFERENCES "public"."avisos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notificacoes_documento_idx" ON "notificacoes" USING btree ("documento_id") WHERE "notificacoes"."documento_id" is not null;--> statement-breakpoint
CREATE INDEX "notificacoes_aviso_idx" ON "notificacoes" USING btree ("aviso_id") WHERE "notificacoes"."aviso_id" is not null;--> statement-breakpoint
ALTER TABLE "auditoria" ADD CONSTRAINT "auditoria_acao_check" CHECK (acao in ('criar', 'alterar', 'excluir', 'ler', 'entrar', 'sair', 'falha_entrada', 'dois_fatores', 'papel', 'download', 'email', 'exportar', 'anonimizar', 'redefinir_dois_fatores', 'senha', 'encerrar_sessoes', 'falha_dois_fatores'));--> statement-breakpoint

-- Erasure, completed: besides the events about the client or the user (migration 0014), every
-- event that names the titular anywhere (a failed sign-in records the e-mail typed, with no
-- account; an administrator's event may name them in its label or fields) loses those values.
-- p_padrao is the titular's values as one case-insensitive regular expression (e-mails, CPF/CNPJ,
-- name, phone), built by the erasure; null when there is none.
DROP FUNCTION IF EXISTS auditoria_anonimizar(uuid, text);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION auditoria_anonimizar(p_cliente_id uuid, p_user_id text, p_padrao text) RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('portal.auditoria_anonimizar', 'on', true);
  UPDATE auditoria a SET
    rotulo = CASE WHEN d.do_titular THEN NULL
                  ELSE regexp_replace(a.rotulo, p_padrao, '[dado removido]', 'gi') END,
    antes = CASE WHEN d.do_titular THEN
              (SELECT jsonb_object_agg(k, v) FROM jsonb_each(CASE WHEN jsonb_typeof(a.antes) = 'object' THEN a.antes END) AS e(k, v)
               WHERE k ~ '(_id$|_em$|_at$|^data|^protocolo$|^situacao$|^vigencia)')
            ELSE regexp_replace(a.antes::text, p_padrao, '[dado removido]', 'gi')::jsonb END,
    depois = CASE WHEN d.do_titular THEN
              (SELECT jsonb_object_agg(k, v) FROM jsonb_each(CASE WHEN jsonb_typeof(a.depois) = 'object' THEN a.depois END) AS e(k, v)
               WHERE k ~ '(_id$|_em$|_at$|^data|^protocolo$|^situacao$|^vigencia)')
            ELSE regexp_replace(a.depois::text, p_padrao, '[dado removido]', 'gi')::jsonb END,
    ator_email = CASE WHEN d.como_ator THEN NULL ELSE a.ator_email END,
    ip = CASE WHEN d.como_ator THEN NULL ELSE a.ip END,
    user_agent = CASE WHEN d.como_ator THEN NULL ELSE a.user_agent END
  FROM (
    SELECT x.id,
           (p_cliente_id IS NOT NULL AND x.cliente_id = p_cliente_id)
             OR (p_user_id IS NOT NULL AND (x.ator_id = p_user_id OR (x.entidade = 'usuario' AND x.entidade_id = p_user_id)))
             AS do_titular,
           (p_user_id IS NOT NULL AND x.ator_id = p_user_id)
             OR (p_padrao IS NOT NULL AND x.ator_email ~* p_padrao) AS como_ator
    FROM auditoria x
    WHERE (p_cliente_id IS NOT NULL AND x.cliente_id = p_cliente_id)
       OR (p_user_id IS NOT NULL AND (x.ator_id = p_user_id OR (x.entidade = 'usuario' AND x.entidade_id = p_user_id)))
       OR (p_padrao IS NOT NULL AND (x.ator_email ~* p_padrao OR x.rotulo ~* p_padrao
                                     OR x.antes::text ~* p_padrao OR x.depois::text ~* p_padrao))
  ) d
  WHERE a.id = d.id;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('portal.auditoria_anonimizar', 'off', true);
  RETURN n;
END
$$;
