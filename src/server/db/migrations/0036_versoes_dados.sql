CREATE TABLE "versoes_dados" (
	"grupo" text PRIMARY KEY NOT NULL,
	"versao" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "versoes_pendentes" (
	"txid" bigint NOT NULL,
	"grupo" text NOT NULL,
	CONSTRAINT "versoes_pendentes_txid_grupo_pk" PRIMARY KEY("txid","grupo")
);
--> statement-breakpoint
-- The version of the business data: kept answers (the Calendário, its feed, the Condicionantes
-- list) are read again only when it moves. It moves once per committing transaction that wrote
-- a table such an answer may read, in the same commit as the data, and never for the writes
-- that come with reading (audit rows, sessions, read marks).
INSERT INTO "versoes_dados" ("grupo", "versao") VALUES ('negocio', 1);
--> statement-breakpoint
-- A statement that wrote business data notes its transaction as pending: one row per
-- transaction (its own key: writers never wait on each other here). A statement that changed no
-- row notes nothing (opening a service marks it seen with an UPDATE that finds it seen already;
-- a statement trigger runs even then). The transaction-local setting skips the rest for the
-- following statements of the same transaction (a row trigger writing another table runs its
-- statement once per row: the daily warnings job's 277,000); like the row, it is undone with a
-- rolled-back savepoint.
CREATE FUNCTION portal_versao_negocio() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('portal.versao_pendente', true) = txid_current()::text THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'TRUNCATE' AND NOT EXISTS (SELECT 1 FROM versao_linhas) THEN
    RETURN NULL;
  END IF;
  INSERT INTO versoes_pendentes (txid, grupo) VALUES (txid_current(), 'negocio')
    ON CONFLICT DO NOTHING;
  PERFORM set_config('portal.versao_pendente', txid_current()::text, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- At commit (deferred), the pending row raises its group's counter and goes. The counter row is
-- so locked only as a writer's last step, held for the instant of its commit: no lock is taken
-- after it (no deadlock cycle through it) and writers are serialised only for that instant.
CREATE FUNCTION portal_versao_publicar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO versoes_dados (grupo, versao) VALUES (NEW.grupo, 1)
    ON CONFLICT (grupo) DO UPDATE SET versao = versoes_dados.versao + 1;
  DELETE FROM versoes_pendentes WHERE txid = NEW.txid AND grupo = NEW.grupo;
  PERFORM set_config('portal.versao_pendente', '', true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER versoes_pendentes_publicar AFTER INSERT ON versoes_pendentes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION portal_versao_publicar();
--> statement-breakpoint
-- Every table of the schema moves the version, except these, which no kept answer reads
-- (the same list as `TABELAS_FORA_DA_VERSAO` in db/versao-dados.ts, whose test fails for a table
-- with no trigger that is not listed there: a new table gets its trigger in its migration).
DO $$
DECLARE t text;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      AND c.relname NOT IN (
        'versoes_dados', 'versoes_pendentes', 'auditoria', 'session', 'verification',
        'rate_limit', 'auth_rate_limit', 'dispositivos_conhecidos', 'two_factor', 'mensagens_leituras',
        'notificacoes', 'calendario_assinaturas', 'avisos_execucoes')
  LOOP
    -- One trigger per event: a transition table (the rows changed) is one event's.
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS versao_linhas '
      'FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio()', t || '_versao_ins', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS versao_linhas '
      'FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio()', t || '_versao_upd', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS versao_linhas '
      'FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio()', t || '_versao_del', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio()', t || '_versao_trunc', t);
  END LOOP;
END $$;
