-- Catalogue names are unique ignoring case and accents: "Licença Ambiental" and
-- "licenca ambiental" are the same category. unaccent() is only STABLE (its dictionary could
-- change), so an index needs this IMMUTABLE wrapper naming the dictionary explicitly; it works the
-- same on PostgreSQL and PGlite (extension of migration 0001).
CREATE OR REPLACE FUNCTION portal_nome_chave(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;
--> statement-breakpoint
-- Names that already repeat keep the oldest as it is; the others get " (2)", " (3)"...
WITH repetidos AS (
  SELECT id, row_number() OVER (PARTITION BY portal_nome_chave(nome) ORDER BY created_at, id) AS n
  FROM categorias
)
UPDATE categorias SET nome = categorias.nome || ' (' || repetidos.n || ')'
FROM repetidos WHERE repetidos.id = categorias.id AND repetidos.n > 1;
--> statement-breakpoint
WITH repetidos AS (
  SELECT id, row_number() OVER (PARTITION BY portal_nome_chave(nome) ORDER BY created_at, id) AS n
  FROM status
)
UPDATE status SET nome = status.nome || ' (' || repetidos.n || ')'
FROM repetidos WHERE repetidos.id = status.id AND repetidos.n > 1;
--> statement-breakpoint
WITH repetidos AS (
  SELECT id, row_number() OVER (PARTITION BY portal_nome_chave(tipo) ORDER BY created_at, id) AS n
  FROM tipos_servicos
)
UPDATE tipos_servicos SET tipo = tipos_servicos.tipo || ' (' || repetidos.n || ')'
FROM repetidos WHERE repetidos.id = tipos_servicos.id AND repetidos.n > 1;
--> statement-breakpoint
WITH repetidos AS (
  SELECT id, row_number() OVER (PARTITION BY portal_nome_chave(tipo) ORDER BY created_at, id) AS n
  FROM tipos_documentos
)
UPDATE tipos_documentos SET tipo = tipos_documentos.tipo || ' (' || repetidos.n || ')'
FROM repetidos WHERE repetidos.id = tipos_documentos.id AND repetidos.n > 1;
--> statement-breakpoint
CREATE TABLE "protocolos_sequencia" (
	"ano" integer PRIMARY KEY NOT NULL,
	"ultimo" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "status_nome_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "categorias_nome_chave_idx" ON "categorias" USING btree (portal_nome_chave("nome"));--> statement-breakpoint
CREATE INDEX "servicos_protocolo_idx" ON "servicos" USING btree ("protocolo");--> statement-breakpoint
CREATE UNIQUE INDEX "status_nome_chave_idx" ON "status" USING btree (portal_nome_chave("nome"));--> statement-breakpoint
CREATE UNIQUE INDEX "tipos_documentos_tipo_chave_idx" ON "tipos_documentos" USING btree (portal_nome_chave("tipo"));--> statement-breakpoint
CREATE UNIQUE INDEX "tipos_servicos_tipo_chave_idx" ON "tipos_servicos" USING btree (portal_nome_chave("tipo"));
--> statement-breakpoint
-- New protocols: '{year}-{6 digits}', sequential per year in São Paulo, made in the
-- database so two requests at once never get the same one (the year's row is locked by the
-- upsert until the transaction ends, and a rolled-back insert gives its number back). A number
-- that someone already typed by hand on a service is skipped.
CREATE OR REPLACE FUNCTION portal_novo_protocolo() RETURNS text
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  novo text;
BEGIN
  LOOP
    INSERT INTO protocolos_sequencia AS p (ano, ultimo)
    VALUES (extract(year FROM now() AT TIME ZONE 'America/Sao_Paulo')::int, 1)
    ON CONFLICT (ano) DO UPDATE SET ultimo = p.ultimo + 1
    RETURNING p.ano::text || '-' || lpad(p.ultimo::text, 6, '0') INTO novo;
    EXIT WHEN NOT EXISTS (SELECT 1 FROM servicos WHERE protocolo = novo);
  END LOOP;
  RETURN novo;
END
$$;
