CREATE TABLE "calendario_eventos" (
	"tipo" text NOT NULL,
	"chave" uuid NOT NULL,
	"data" date NOT NULL,
	"titulo" text NOT NULL,
	"servico_id" uuid NOT NULL,
	"cliente_id" uuid NOT NULL,
	"tipo_servico_id" uuid NOT NULL,
	"status_id" uuid,
	"servico" text NOT NULL,
	"cliente" text NOT NULL,
	"visivel" boolean NOT NULL,
	CONSTRAINT "calendario_eventos_tipo_chave_pk" PRIMARY KEY("tipo","chave")
);
--> statement-breakpoint
CREATE INDEX "calendario_eventos_data_idx" ON "calendario_eventos" USING btree ("data","tipo","chave");--> statement-breakpoint
CREATE INDEX "calendario_eventos_cliente_idx" ON "calendario_eventos" USING btree ("cliente_id","data","tipo","chave");--> statement-breakpoint
CREATE INDEX "calendario_eventos_servico_idx" ON "calendario_eventos" USING btree ("servico_id");--> statement-breakpoint
-- ---- custom SQL (issue 31): the calendar's events as one table (calendario_eventos) ----
-- Every event of every service, with what the answer shows of it and what its scope is checked
-- on, kept in the writing transaction by the statement triggers below: a service's events are
-- made again from its sources (`calendario_eventos_fonte`) whenever one of its items, the
-- service itself, its renewal deadline or its renewal changes. Read at request time, not kept
-- here: whether the service is archived or no longer expires (its status' name: a status renamed
-- needs no rewrite) and the Categoria filter (through its type). The labels of 'vencimento' and
-- 'renovacao' are ROTULO_EVENTO's (shared/schemas/calendario.ts).
CREATE VIEW calendario_eventos_fonte AS
  SELECT 'vencimento'::text AS tipo, s.id AS chave, s.vigencia_fim AS data,
         'Vencimento da licença'::text AS titulo, s.id AS servico_id, true AS visivel
    FROM servicos s WHERE s.vigencia_fim IS NOT NULL
  UNION ALL
  SELECT 'renovacao', pr.servico_id, pr.prazo_renovacao, 'Prazo para renovação', pr.servico_id, true
    FROM servicos_prazos pr JOIN servicos s ON s.id = pr.servico_id
   WHERE (s.vigencia_inicio IS NULL OR pr.prazo_renovacao >= s.vigencia_inicio)
     AND NOT EXISTS (SELECT 1 FROM renovacoes r WHERE r.servico_id = pr.servico_id)
  UNION ALL
  SELECT 'aviso', a.id, a.data_limite, left(split_part(a.texto, E'\n', 1), 80), a.servico_id,
         a.visivel_cliente
    FROM avisos a WHERE NOT a.resolvido
  UNION ALL
  SELECT 'exigencia', e.id, e.prazo, left(split_part(e.descricao, E'\n', 1), 80), e.servico_id, true
    FROM exigencias e WHERE e.respondida_em IS NULL
  UNION ALL
  SELECT 'condicionante', e.id, e.data_prevista,
         left(split_part(k.item || ' ' || k.descricao, E'\n', 1), 80), e.servico_id, k.visivel_cliente
    FROM condicionantes_entregas e JOIN condicionantes k ON k.id = e.condicionante_id
   WHERE e.estado = 'pendente';
--> statement-breakpoint
-- The events of the services `ids`, made again from their sources, with their service's columns:
-- the events no longer there deleted, the others inserted or updated where they changed (an
-- event that did not change is not written again: the heap does not churn at every write).
-- PL/pgSQL with one generic plan per session: planning the union of the view took ~17 ms, 35
-- times its run for one service (a LANGUAGE sql function plans again at every call).
CREATE FUNCTION calendario_eventos_refazer(ids uuid[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  WITH novos AS (
    SELECT f.tipo, f.chave, f.data, f.titulo, f.servico_id, s.cliente_id, s.tipo_servico_id,
           s.status_id, t.tipo || coalesce(' (' || s.protocolo || ')', '') AS servico,
           c.nome AS cliente, f.visivel
      FROM calendario_eventos_fonte f
      JOIN servicos s ON s.id = f.servico_id
      JOIN tipos_servicos t ON t.id = s.tipo_servico_id
      JOIN clientes c ON c.id = s.cliente_id
     WHERE f.servico_id = ANY (ids)
  ), apagados AS (
    DELETE FROM calendario_eventos e
     WHERE e.servico_id = ANY (ids)
       AND (e.tipo, e.chave) NOT IN (SELECT n.tipo, n.chave FROM novos n)
  )
  INSERT INTO calendario_eventos AS e (tipo, chave, data, titulo, servico_id, cliente_id,
      tipo_servico_id, status_id, servico, cliente, visivel)
    SELECT * FROM novos
  -- also two transactions remaking one service: the second did not see the first's new rows
  ON CONFLICT (tipo, chave) DO UPDATE SET data = EXCLUDED.data, titulo = EXCLUDED.titulo,
    servico_id = EXCLUDED.servico_id, cliente_id = EXCLUDED.cliente_id,
    tipo_servico_id = EXCLUDED.tipo_servico_id, status_id = EXCLUDED.status_id,
    servico = EXCLUDED.servico, cliente = EXCLUDED.cliente, visivel = EXCLUDED.visivel
  WHERE (e.data, e.titulo, e.servico_id, e.cliente_id, e.tipo_servico_id, e.status_id, e.servico,
         e.cliente, e.visivel)
        IS DISTINCT FROM (EXCLUDED.data, EXCLUDED.titulo, EXCLUDED.servico_id,
         EXCLUDED.cliente_id, EXCLUDED.tipo_servico_id, EXCLUDED.status_id, EXCLUDED.servico,
         EXCLUDED.cliente, EXCLUDED.visivel);
END $$;
--> statement-breakpoint
-- A statement on an item table (avisos, exigencias, condicionantes, condicionantes_entregas,
-- servicos_prazos, renovacoes): the services of the rows it wrote, before and after, made again.
-- One call per statement, so a bulk insert remakes each service once. An update only for the
-- rows whose columns the events read (TG_ARGV[0], the item's key and servico_id first) changed:
-- the daily job's marks on entregas (avisado_*_em) remake nothing.
CREATE FUNCTION calendario_eventos_itens() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT servico_id FROM novos);
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE format('SELECT array(SELECT servico_id FROM (SELECT %1$s FROM novos EXCEPT SELECT %1$s FROM velhos) n
      UNION SELECT servico_id FROM (SELECT %1$s FROM velhos EXCEPT SELECT %1$s FROM novos) o)', TG_ARGV[0])
      INTO ids;
  ELSE
    ids := array(SELECT DISTINCT servico_id FROM velhos);
  END IF;
  PERFORM calendario_eventos_refazer(ids);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- servicos: a new service; an update that changes what its events show or whether they are
-- (its client, type, status, protocol, dates); a deleted one's events go.
CREATE FUNCTION calendario_eventos_servicos() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM calendario_eventos_refazer(array(SELECT id FROM novos));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM calendario_eventos_refazer(array(
      SELECT n.id FROM novos n JOIN velhos o ON o.id = n.id
       WHERE (n.cliente_id, n.tipo_servico_id, n.status_id, n.protocolo, n.vigencia_inicio,
              n.vigencia_fim)
             IS DISTINCT FROM (o.cliente_id, o.tipo_servico_id, o.status_id, o.protocolo,
              o.vigencia_inicio, o.vigencia_fim)));
  ELSE
    DELETE FROM calendario_eventos WHERE servico_id IN (SELECT id FROM velhos);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A client's name, a type's name: written into their events as they are.
CREATE FUNCTION calendario_eventos_cliente() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE calendario_eventos SET cliente = NEW.nome WHERE cliente_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION calendario_eventos_tipo() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM calendario_eventos_refazer(array(SELECT s.id FROM servicos s WHERE s.tipo_servico_id = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_servicos_i AFTER INSERT ON servicos
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_servicos();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_servicos_u AFTER UPDATE ON servicos
  REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_servicos();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_servicos_d AFTER DELETE ON servicos
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_servicos();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_cliente AFTER UPDATE OF nome ON clientes
  FOR EACH ROW WHEN (OLD.nome IS DISTINCT FROM NEW.nome) EXECUTE FUNCTION calendario_eventos_cliente();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_tipo AFTER UPDATE OF tipo ON tipos_servicos
  FOR EACH ROW WHEN (OLD.tipo IS DISTINCT FROM NEW.tipo) EXECUTE FUNCTION calendario_eventos_tipo();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON avisos
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON avisos REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('id, servico_id, texto, data_limite, resolvido, visivel_cliente');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON avisos
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON exigencias
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON exigencias REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('id, servico_id, descricao, prazo, respondida_em');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON exigencias
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON condicionantes
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON condicionantes REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('id, servico_id, item, descricao, visivel_cliente');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON condicionantes
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON condicionantes_entregas
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON condicionantes_entregas REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('id, servico_id, condicionante_id, data_prevista, estado');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON condicionantes_entregas
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON servicos_prazos
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON servicos_prazos REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('servico_id, prazo_renovacao');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON servicos_prazos
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_i AFTER INSERT ON renovacoes
  REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_u AFTER UPDATE ON renovacoes REFERENCING OLD TABLE AS velhos NEW TABLE AS novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens('servico_id');
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_d AFTER DELETE ON renovacoes
  REFERENCING OLD TABLE AS velhos FOR EACH STATEMENT EXECUTE FUNCTION calendario_eventos_itens();
--> statement-breakpoint
-- The office's index carries what the answer and its scope read: a period is an index-only walk
-- (a month, 1,001 events: ~40 pages instead of one heap page per event, the rows being in the
-- order they were written, not by date). Not in the drizzle schema, which has no INCLUDE.
DROP INDEX "calendario_eventos_data_idx";
--> statement-breakpoint
CREATE INDEX "calendario_eventos_data_idx" ON "calendario_eventos" USING btree ("data","tipo","chave")
  INCLUDE ("status_id", "visivel", "tipo_servico_id", "titulo", "servico_id", "servico", "cliente");
--> statement-breakpoint
-- The events recorded before this migration, in date order (the heap then follows the index).
INSERT INTO calendario_eventos (tipo, chave, data, titulo, servico_id, cliente_id, tipo_servico_id,
    status_id, servico, cliente, visivel)
  SELECT f.tipo, f.chave, f.data, f.titulo, f.servico_id, s.cliente_id, s.tipo_servico_id,
         s.status_id, t.tipo || coalesce(' (' || s.protocolo || ')', ''), c.nome, f.visivel
    FROM calendario_eventos_fonte f
    JOIN servicos s ON s.id = f.servico_id
    JOIN tipos_servicos t ON t.id = s.tipo_servico_id
    JOIN clientes c ON c.id = s.cliente_id
   ORDER BY f.data, f.tipo, f.chave;
--> statement-breakpoint
-- The data version (migration 0036): every table moves it but those listed there. This one is
-- written only with its sources, which move it already; its own triggers keep the rule whole.
CREATE TRIGGER calendario_eventos_versao_ins AFTER INSERT ON calendario_eventos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_versao_upd AFTER UPDATE ON calendario_eventos
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_versao_del AFTER DELETE ON calendario_eventos
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_eventos_versao_trunc AFTER TRUNCATE ON calendario_eventos
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
