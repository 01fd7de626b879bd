-- The audit trail. One append-only table: a trigger refuses every UPDATE and DELETE
-- (the app connects as the owner, even a superuser in tests, so privileges alone cannot stop it),
-- except through the two functions at the end: auditoria_anonimizar (erasure of a data subject:
-- personal values only, ids, action and time stay) and auditoria_expurgar (retention: events
-- older than a date). Each sets a transaction-local flag that the trigger checks and clears it
-- before returning.

-- The words of the free-text filter: the actor's e-mail, the entity's id and name, and every
-- string value of the fields before and after; lower-case, without accents, split at anything
-- but letters and digits, like portal_termos (migration 0007).
CREATE OR REPLACE FUNCTION portal_auditoria_termos(ator_email text, entidade_id text, rotulo text, antes jsonb, depois jsonb) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT to_tsvector('simple'::regconfig, regexp_replace(
           lower(public.unaccent('public.unaccent'::regdictionary,
             coalesce(ator_email, '') || ' ' || coalesce(entidade_id, '') || ' ' || coalesce(rotulo, '') || ' ' ||
             coalesce(jsonb_path_query_array(antes, 'strict $.** ? (@.type() == "string")')::text, '') || ' ' ||
             coalesce(jsonb_path_query_array(depois, 'strict $.** ? (@.type() == "string")')::text, ''))),
           '[^a-z0-9]+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE TABLE "auditoria" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"em" timestamp with time zone DEFAULT now() NOT NULL,
	"ator_id" text,
	"ator_email" text,
	"ator_role" text,
	"ip" text,
	"user_agent" text,
	"acao" text NOT NULL,
	"entidade" text NOT NULL,
	"entidade_id" text,
	"rotulo" text,
	"servico_id" uuid,
	"cliente_id" uuid,
	"antes" jsonb,
	"depois" jsonb,
	"termos" "tsvector" GENERATED ALWAYS AS (portal_auditoria_termos(ator_email, entidade_id, rotulo, antes, depois)) STORED,
	CONSTRAINT "auditoria_acao_check" CHECK (acao in ('criar', 'alterar', 'excluir', 'ler', 'entrar', 'sair', 'falha_entrada', 'dois_fatores', 'papel', 'download', 'email', 'exportar', 'anonimizar'))
);
--> statement-breakpoint
CREATE INDEX "auditoria_em_idx" ON "auditoria" USING btree ("em" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auditoria_servico_idx" ON "auditoria" USING btree ("servico_id","em" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "auditoria"."servico_id" is not null;--> statement-breakpoint
CREATE INDEX "auditoria_cliente_idx" ON "auditoria" USING btree ("cliente_id","em" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "auditoria"."cliente_id" is not null;--> statement-breakpoint
CREATE INDEX "auditoria_ator_idx" ON "auditoria" USING btree ("ator_id","em" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "auditoria"."ator_id" is not null;--> statement-breakpoint
CREATE INDEX "auditoria_acao_idx" ON "auditoria" USING btree ("acao","em" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auditoria_entidade_idx" ON "auditoria" USING btree ("entidade","em" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auditoria_termos_idx" ON "auditoria" USING gin ("termos");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION auditoria_protege() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  limite text;
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('portal.auditoria_anonimizar', true) = 'on' THEN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.em IS DISTINCT FROM OLD.em
       OR NEW.acao IS DISTINCT FROM OLD.acao OR NEW.entidade IS DISTINCT FROM OLD.entidade
       OR NEW.entidade_id IS DISTINCT FROM OLD.entidade_id OR NEW.ator_id IS DISTINCT FROM OLD.ator_id
       OR NEW.ator_role IS DISTINCT FROM OLD.ator_role OR NEW.servico_id IS DISTINCT FROM OLD.servico_id
       OR NEW.cliente_id IS DISTINCT FROM OLD.cliente_id THEN
      RAISE EXCEPTION 'auditoria: a anonimização só remove valores pessoais' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    limite := current_setting('portal.auditoria_expurgar', true);
    IF limite IS NOT NULL AND limite <> '' AND OLD.em < limite::timestamptz THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'auditoria: os registros de auditoria não podem ser alterados nem excluídos' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER auditoria_somente_insercao BEFORE UPDATE OR DELETE ON auditoria
FOR EACH ROW EXECUTE FUNCTION auditoria_protege();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION auditoria_protege_truncate() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  RAISE EXCEPTION 'auditoria: os registros de auditoria não podem ser alterados nem excluídos' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER auditoria_sem_truncate BEFORE TRUNCATE ON auditoria
FOR EACH STATEMENT EXECUTE FUNCTION auditoria_protege_truncate();
--> statement-breakpoint

-- Erasure (part B): the events about a client (cliente_id) or a user (as the actor or
-- the subject) keep their ids, action and time; the personal values go: the entity's name, the
-- actor's e-mail, address and browser (when the actor is the erased user), and every field
-- before/after but ids, dates, the protocol and situations. Returns how many events changed.
CREATE OR REPLACE FUNCTION auditoria_anonimizar(p_cliente_id uuid, p_user_id text) RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('portal.auditoria_anonimizar', 'on', true);
  UPDATE auditoria a SET
    rotulo = NULL,
    antes = (SELECT jsonb_object_agg(k, v) FROM jsonb_each(CASE WHEN jsonb_typeof(a.antes) = 'object' THEN a.antes END) AS e(k, v)
             WHERE k ~ '(_id$|_em$|_at$|^data|^protocolo$|^situacao$|^vigencia)'),
    depois = (SELECT jsonb_object_agg(k, v) FROM jsonb_each(CASE WHEN jsonb_typeof(a.depois) = 'object' THEN a.depois END) AS e(k, v)
              WHERE k ~ '(_id$|_em$|_at$|^data|^protocolo$|^situacao$|^vigencia)'),
    ator_email = CASE WHEN a.ator_id = p_user_id THEN NULL ELSE a.ator_email END,
    ip = CASE WHEN a.ator_id = p_user_id THEN NULL ELSE a.ip END,
    user_agent = CASE WHEN a.ator_id = p_user_id THEN NULL ELSE a.user_agent END
  WHERE (p_cliente_id IS NOT NULL AND a.cliente_id = p_cliente_id)
     OR (p_user_id IS NOT NULL AND (a.ator_id = p_user_id OR (a.entidade = 'usuario' AND a.entidade_id = p_user_id)));
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('portal.auditoria_anonimizar', 'off', true);
  RETURN n;
END
$$;
--> statement-breakpoint

-- Retention (part B): removes the events older than p_antes. Returns how many.
CREATE OR REPLACE FUNCTION auditoria_expurgar(p_antes timestamptz) RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('portal.auditoria_expurgar', p_antes::text, true);
  DELETE FROM auditoria WHERE em < p_antes;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('portal.auditoria_expurgar', '', true);
  RETURN n;
END
$$;
