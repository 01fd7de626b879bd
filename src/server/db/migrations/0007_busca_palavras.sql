-- Search as people type it. The dashboard's text search becomes word-prefix matching
-- over a tsvector (one GIN lookup per word instead of trigrams that match most rows), typed page
-- numbers become a jump through per-month counts instead of OFFSET over the whole list, and a
-- data version lets a search total, counted once, be reused until the services change.

CREATE TABLE "servicos_contagem_criacao" (
	"categoria_id" uuid,
	"status_id" uuid,
	"mes" timestamp with time zone NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "servicos_contagem_criacao_chave" UNIQUE NULLS NOT DISTINCT("categoria_id","status_id","mes")
);
--> statement-breakpoint
CREATE TABLE "servicos_painel_versao" (
	"parte" integer PRIMARY KEY NOT NULL,
	"versao" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO servicos_painel_versao (parte, versao) SELECT g, 0 FROM generate_series(0, 15) g;
--> statement-breakpoint

-- The words a service is found by: every word of the client's name, the type and the protocol
-- (lower-case, without accents, split at anything but letters and digits), plus every tail of at
-- least two digits of the protocol's digit groups of three or more, so '4217', '004217' and
-- '2026-0042' all find protocol '2026-004217' by prefix. The tails come after the words, so every
-- lexeme has a position and phrase queries ('prot:* <-> 0042:*') work on all of them.
CREATE OR REPLACE FUNCTION portal_termos(nome text, tipo text, protocolo text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT to_tsvector('simple'::regconfig, regexp_replace(
           lower(public.unaccent('public.unaccent'::regdictionary,
             coalesce(nome, '') || ' ' || coalesce(tipo, '') || ' ' || coalesce(protocolo, ''))),
           '[^a-z0-9]+', ' ', 'g')
         || ' ' || coalesce((
           SELECT string_agg(DISTINCT substr(d, i), ' ')
           FROM regexp_split_to_table(coalesce(protocolo, ''), '[^0-9]+') d,
                generate_series(2, length(d) - 1) i
           WHERE length(d) > 2), ''))
$$;
--> statement-breakpoint

ALTER TABLE "servicos_painel" ADD COLUMN "termos" tsvector;
--> statement-breakpoint
DROP INDEX "servicos_painel_busca_idx";
--> statement-breakpoint
UPDATE servicos_painel p SET termos = portal_termos(c.nome, t.tipo, s.protocolo)
FROM servicos s JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
WHERE s.id = p.servico_id;
--> statement-breakpoint
ALTER TABLE "servicos_painel" ALTER COLUMN "termos" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "servicos_painel" DROP COLUMN "busca";
--> statement-breakpoint
CREATE INDEX "servicos_painel_termos_idx" ON "servicos_painel" USING gin ("termos");
--> statement-breakpoint
INSERT INTO servicos_contagem_criacao (categoria_id, status_id, mes, total)
SELECT categoria_id, status_id, date_trunc('month', created_at, 'UTC'), count(*)
FROM servicos_painel GROUP BY 1, 2, 3;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION servicos_painel_refresh(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO servicos_painel AS p
    (servico_id, created_at, termos, categoria_id, status_id, arquivado, vigencia_fim)
  SELECT s.id, s.created_at, portal_termos(c.nome, t.tipo, s.protocolo),
         t.categoria_id, s.status_id,
         coalesce(portal_normaliza(st.nome) = 'arquivado', false),
         s.vigencia_fim
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

-- One function for the three statement triggers on servicos_painel: the rows a statement
-- removed count -1 and the rows it added +1 in the three count tables (in key order, so
-- concurrent writers lock count rows in the same order), and the statement's part of the data
-- version goes up by one.
CREATE OR REPLACE FUNCTION servicos_contagem_aplica(antigos_json jsonb, novos_json jsonb) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  WITH linhas AS (
    SELECT r.categoria_id, r.status_id, r.arquivado, r.vigencia_fim, r.created_at, -1 AS n
    FROM jsonb_to_recordset(antigos_json) AS r(categoria_id uuid, status_id uuid, arquivado boolean, vigencia_fim date, created_at timestamptz)
    UNION ALL
    SELECT r.categoria_id, r.status_id, r.arquivado, r.vigencia_fim, r.created_at, 1
    FROM jsonb_to_recordset(novos_json) AS r(categoria_id uuid, status_id uuid, arquivado boolean, vigencia_fim date, created_at timestamptz)
  ),
  por_status AS (
    INSERT INTO servicos_contagem AS c (categoria_id, status_id, total)
    SELECT categoria_id, status_id, sum(n) FROM linhas
    GROUP BY categoria_id, status_id HAVING sum(n) <> 0
    ORDER BY categoria_id, status_id
    ON CONFLICT (categoria_id, status_id) DO UPDATE SET total = c.total + excluded.total
  ),
  por_criacao AS (
    INSERT INTO servicos_contagem_criacao AS c (categoria_id, status_id, mes, total)
    SELECT categoria_id, status_id, date_trunc('month', created_at, 'UTC'), sum(n) FROM linhas
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (categoria_id, status_id, mes) DO UPDATE SET total = c.total + excluded.total
  )
  INSERT INTO servicos_contagem_mes AS c (categoria_id, status_id, arquivado, mes, total)
  SELECT categoria_id, status_id, arquivado, date_trunc('month', vigencia_fim)::date, sum(n) FROM linhas
  GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (categoria_id, status_id, arquivado, mes) DO UPDATE SET total = c.total + excluded.total;
  UPDATE servicos_painel_versao SET versao = versao + 1 WHERE parte = pg_backend_pid() % 16;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_contagem_ins() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM novos) THEN
    PERFORM servicos_contagem_aplica('[]'::jsonb,
      (SELECT jsonb_agg(to_jsonb(n)) FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, created_at FROM novos) n));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_contagem_upd() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM novos) THEN
    PERFORM servicos_contagem_aplica(
      (SELECT jsonb_agg(to_jsonb(o)) FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, created_at FROM antigos) o),
      (SELECT jsonb_agg(to_jsonb(n)) FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, created_at FROM novos) n));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION servicos_contagem_del() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM antigos) THEN
    PERFORM servicos_contagem_aplica(
      (SELECT jsonb_agg(to_jsonb(o)) FROM (SELECT categoria_id, status_id, arquivado, vigencia_fim, created_at FROM antigos) o),
      '[]'::jsonb);
  END IF;
  RETURN NULL;
END
$$;
