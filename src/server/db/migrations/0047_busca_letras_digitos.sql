CREATE TABLE "busca_juntas" (
	"palavra" text COLLATE "C" PRIMARY KEY NOT NULL,
	"servicos" integer NOT NULL
);
--> statement-breakpoint
-- A protocol's start as people paste it, its agency's letters and its year ('PRT-2025',
-- 'IEMA-2026', 'LO 2024'): its two parts are each in a sixth of all services or more, so its
-- count (up to 10,001) read every service of 'prt' and every word that starts with '2025' (the
-- pairs of 0039 among them) from the GIN index: 167 ms at 100,000 services, 704 ms at 1,000,000.
-- Each word that begins with a letter right before one that begins with a digit, as a phrase
-- sees them (the tsvector's positions, so the protocol's last word before its tails counts as
-- it does for '<->'), gets a word of its own: the first word, '.', the second word's first four
-- digits ('prt.2025', 'iema.2026', 'prot.0004'). The words' triggers (0016)
-- count them with the others, in `busca_juntas` (a letter prefix's range in `busca_palavras`
-- would read them all: 'ambientais', the last word of a type, before a protocol's serial is
-- 41,667 of them at 1,000,000 services): a search of one letter part and one digit part reads
-- there how many services have it, exactly, with no match read, and asks the GIN index for that
-- word (the search itself tested on each row found, painel-busca.ts).
-- As the pairs of 0039: nobody can type them ('.' splits what is typed), PostgreSQL's parser
-- reads each as one word (a file name) in to_tsquery, and they sit at the last position (16383),
-- next to no word. The words by month (0042) leave them out, as they leave out the pairs.
CREATE OR REPLACE FUNCTION portal_termos_mes(termos tsvector, criado timestamptz) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL RESTRICTED AS $$
  SELECT array_to_tsvector(coalesce(array_agg(DISTINCT m.mes || CASE WHEN w ~ '^[a-z]' THEN w ELSE left(w, 4) END), '{}'))
  FROM (SELECT to_char(criado AT TIME ZONE 'UTC', 'YYYYMM') || '.' AS mes) m,
       unnest(tsvector_to_array(termos)) w
  WHERE w ~ '^[a-z][a-z0-9]*$' OR w ~ '^[0-9][a-z0-9]{2,}$'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_termos(nome text, tipo text, protocolo text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  t text := regexp_replace(
    lower(public.unaccent('public.unaccent'::regdictionary,
      coalesce(nome, '') || ' ' || coalesce(tipo, '') || ' ' || coalesce(protocolo, ''))),
    '[^a-z0-9]+', ' ', 'g');
  caudas text := '';
  w text[];
  pares text := '';
  d1 text;
  d2 text;
  v tsvector;
  juntas text;
BEGIN
  -- Every tail of at least two digits of the protocol's digit groups of three or more (0007).
  IF protocolo ~ '[0-9]{3}' THEN
    SELECT coalesce(string_agg(DISTINCT substr(d, i), ' '), '') INTO caudas
    FROM regexp_split_to_table(protocolo, '[^0-9]+') d, generate_series(2, length(d) - 1) i
    WHERE length(d) > 2;
  END IF;
  -- The pairs of digit words (0039): only a text with a word that starts with a digit before one
  -- that does.
  IF t ~ '[0-9][a-z0-9]* [0-9]' THEN
    w := string_to_array(btrim(t), ' ');
    FOR i IN 1 .. cardinality(w) - 1 LOOP
      d1 := substring(w[i] from '^[0-9]+');
      d2 := substring(w[i + 1] from '^[0-9]+');
      IF d1 IS NOT NULL AND d2 IS NOT NULL THEN
        IF length(d1) >= 4 THEN pares := pares || ' ' || quote_literal(left(d1, 4) || '.' || d2) || ':16383'; END IF;
        IF length(d2) >= 4 THEN pares := pares || ' ' || quote_literal(left(d2, 4) || '/' || d1) || ':16383'; END IF;
      END IF;
    END LOOP;
  END IF;
  v := to_tsvector('simple'::regconfig, t || ' ' || caudas);
  -- A word that begins with a letter right before one that begins with a digit, by position:
  -- the text's words are the tsvector's, one each, unless a word that begins with a digit has a
  -- letter ('1e5x' is '1e5' and 'x'), when the tsvector's positions are read instead.
  IF t || ' ' || caudas ~ '[a-z][a-z0-9]* +[0-9]' THEN
    IF t ~ '(^| )[0-9]+[a-z]' THEN
      SELECT string_agg(DISTINCT quote_literal(a.lexeme || '.' || left(substring(b.lexeme from '^[0-9]+'), 4)) || ':16383', ' ')
      INTO juntas
      FROM (SELECT lexeme, unnest(positions) AS pos FROM unnest(v)) a
      JOIN (SELECT lexeme, unnest(positions) AS pos FROM unnest(v)) b ON b.pos = a.pos + 1
      WHERE a.lexeme ~ '^[a-z]' AND b.lexeme ~ '^[0-9]';
      pares := pares || ' ' || coalesce(juntas, '');
    ELSE
      w := string_to_array(btrim(t || ' ' || caudas), ' ');
      FOR i IN 1 .. cardinality(w) - 1 LOOP
        IF w[i] ~ '^[a-z]' AND w[i + 1] ~ '^[0-9]' THEN
          pares := pares || ' ' || quote_literal(w[i] || '.' || left(w[i + 1], 4)) || ':16383';
        END IF;
      END LOOP;
    END IF;
  END IF;
  RETURN v || pares::tsvector;
END
$$;
--> statement-breakpoint
-- +1 / -1 for each word of the rows a statement added / removed (0016), the pairs above in their
-- own table. In word order, so concurrent writers lock the same rows in the same order.
CREATE OR REPLACE FUNCTION busca_palavras_aplica(antes text[], depois text[]) RETURNS void
LANGUAGE sql
AS $$
  WITH d AS (
    SELECT w, sum(k) AS n FROM (
      SELECT unnest(antes) AS w, -1 AS k
      UNION ALL
      SELECT unnest(depois), 1
    ) x
    GROUP BY w HAVING sum(k) <> 0
  ), juntas AS (
    INSERT INTO busca_juntas AS b (palavra, servicos)
    SELECT w, n FROM d WHERE strpos(w, '.') > 0 ORDER BY w
    ON CONFLICT (palavra) DO UPDATE SET servicos = b.servicos + excluded.servicos
  )
  INSERT INTO busca_palavras AS b (palavra, servicos)
  SELECT w, n FROM d WHERE strpos(w, '.') = 0 ORDER BY w
  ON CONFLICT (palavra) DO UPDATE SET servicos = b.servicos + excluded.servicos
$$;
--> statement-breakpoint
-- Every service's words again. The GIN indexes are built anew after the rows (each row's words
-- added one by one cost a third of the time), and the words' update trigger is off meanwhile:
-- the only words the new function adds are these pairs, counted below from the rows, the digits'
-- starts (0045, 0046) are the same, and the other triggers run as ever (the data version moves).
-- At 100,000 services 85 s as a plain UPDATE, 28 s so.
DROP INDEX servicos_painel_termos_idx;
--> statement-breakpoint
DROP INDEX servicos_painel_termos_mes_idx;
--> statement-breakpoint
ALTER TABLE servicos_painel DISABLE TRIGGER servicos_painel_palavras_upd;
--> statement-breakpoint
UPDATE servicos_painel p SET termos = portal_termos(c.nome, t.tipo, s.protocolo)
FROM servicos s JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
WHERE s.id = p.servico_id AND p.termos IS DISTINCT FROM portal_termos(c.nome, t.tipo, s.protocolo);
--> statement-breakpoint
ALTER TABLE servicos_painel ENABLE TRIGGER servicos_painel_palavras_upd;
--> statement-breakpoint
INSERT INTO busca_juntas (palavra, servicos)
SELECT w, count(*) FROM servicos_painel p, unnest(busca_palavras_de(p.termos)) w
WHERE strpos(w, '.') > 0 GROUP BY w ORDER BY w;
--> statement-breakpoint
CREATE INDEX servicos_painel_termos_idx ON servicos_painel USING gin (termos) WITH (gin_pending_list_limit = 64);
--> statement-breakpoint
CREATE INDEX servicos_painel_termos_mes_idx ON servicos_painel USING gin (portal_termos_mes(termos, created_at)) WITH (gin_pending_list_limit = 64);
--> statement-breakpoint
-- The data version (migration 0036): written only with the read model, which moves it already;
-- its own triggers keep the rule whole.
CREATE TRIGGER busca_juntas_versao_ins AFTER INSERT ON busca_juntas
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_juntas_versao_upd AFTER UPDATE ON busca_juntas
  REFERENCING NEW TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_juntas_versao_del AFTER DELETE ON busca_juntas
  REFERENCING OLD TABLE AS versao_linhas FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
--> statement-breakpoint
CREATE TRIGGER busca_juntas_versao_trunc AFTER TRUNCATE ON busca_juntas
  FOR EACH STATEMENT EXECUTE FUNCTION portal_versao_negocio();
