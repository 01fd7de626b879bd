CREATE TABLE "calendario_contagem" (
	"data" date NOT NULL,
	"tipo" text NOT NULL,
	"status_id" uuid,
	"visivel" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "calendario_contagem_chave" UNIQUE NULLS NOT DISTINCT("data","tipo","status_id","visivel")
);
--> statement-breakpoint
-- Custom SQL (drizzle-kit cannot express it): the counts follow `calendario_eventos` by statement
-- triggers (transition tables), one upsert per statement, in the key's order (concurrent writers
-- take the count rows in the same order), and only for the keys whose number changed.
CREATE FUNCTION calendario_contar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO calendario_contagem AS c (data, tipo, status_id, visivel, n)
    SELECT data, tipo, status_id, visivel, count(*) FROM calendario_contagem_novos
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT calendario_contagem_chave DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO calendario_contagem AS c (data, tipo, status_id, visivel, n)
    SELECT data, tipo, status_id, visivel, -count(*) FROM calendario_contagem_antigos
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT calendario_contagem_chave DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO calendario_contagem AS c (data, tipo, status_id, visivel, n)
    SELECT data, tipo, status_id, visivel, sum(d) FROM (
      SELECT data, tipo, status_id, visivel, 1 AS d FROM calendario_contagem_novos
      UNION ALL
      SELECT data, tipo, status_id, visivel, -1 FROM calendario_contagem_antigos
    ) m GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT calendario_contagem_chave DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_ins AFTER INSERT ON calendario_eventos
  REFERENCING NEW TABLE AS calendario_contagem_novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_contar();
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_upd AFTER UPDATE ON calendario_eventos
  REFERENCING OLD TABLE AS calendario_contagem_antigos NEW TABLE AS calendario_contagem_novos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_contar();
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_del AFTER DELETE ON calendario_eventos
  REFERENCING OLD TABLE AS calendario_contagem_antigos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_contar();
--> statement-breakpoint
CREATE FUNCTION calendario_contagem_zerar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM calendario_contagem;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_trunc AFTER TRUNCATE ON calendario_eventos
  FOR EACH STATEMENT EXECUTE FUNCTION calendario_contagem_zerar();
--> statement-breakpoint
INSERT INTO calendario_contagem (data, tipo, status_id, visivel, n)
SELECT data, tipo, status_id, visivel, count(*) FROM calendario_eventos GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- The data version (versao-dados.ts): written only with the events, which move it already; its own
-- triggers keep the rule whole.
CREATE TRIGGER calendario_contagem_versao_ins AFTER INSERT ON calendario_contagem
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_versao_upd AFTER UPDATE ON calendario_contagem
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_versao_del AFTER DELETE ON calendario_contagem
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER calendario_contagem_versao_trunc AFTER TRUNCATE ON calendario_contagem
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
