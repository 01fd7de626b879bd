-- The pairs of digit words in a row (0039) began with digits ('2024.0015', '0015/2024'), so a
-- digit part typed beside another word ('silva 2024', 'maria 2025') asked the GIN index for
-- '2024':*, whose range held every pair of that year: 8,340 words at 100,000 services, ten times
-- as many at 1,000,000, each read and merged for a count that finds the same services as the
-- word '2024' alone (a pair's digits are the start of a word of its service). They now begin
-- with a '/' ('/2024.0015', '/0015/2024'), which no word of a text does: a digit prefix's range
-- is the digit words only, and the pairs are a range of their own. PostgreSQL's parser still reads
-- each as one word (a file name) in to_tsquery. The words' tables hold the same rows: those of
-- letters (0016, 0047) and the words by month (0042) never took a pair, and the digits' starts
-- (0045, 0046) took a pair's first digits, which begin a word of the same service anyway.
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
  -- The pairs of digit words (0039), after a '/' (0048): only a text with a word that starts with
  -- a digit before one that does.
  IF t ~ '[0-9][a-z0-9]* [0-9]' THEN
    w := string_to_array(btrim(t), ' ');
    FOR i IN 1 .. cardinality(w) - 1 LOOP
      d1 := substring(w[i] from '^[0-9]+');
      d2 := substring(w[i + 1] from '^[0-9]+');
      IF d1 IS NOT NULL AND d2 IS NOT NULL THEN
        IF length(d1) >= 4 THEN pares := pares || ' ' || quote_literal('/' || left(d1, 4) || '.' || d2) || ':16383'; END IF;
        IF length(d2) >= 4 THEN pares := pares || ' ' || quote_literal('/' || left(d2, 4) || '/' || d1) || ':16383'; END IF;
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
-- The services with a pair (a word of four digits, then a '.' or a '/'), their words again, as
-- in 0047: the GIN indexes built anew after the rows, and the words' update trigger off meanwhile
-- (no words' table changes, above; the other triggers run as ever, so the data version moves).
DROP INDEX servicos_painel_termos_idx;
--> statement-breakpoint
DROP INDEX servicos_painel_termos_mes_idx;
--> statement-breakpoint
ALTER TABLE servicos_painel DISABLE TRIGGER servicos_painel_palavras_upd;
--> statement-breakpoint
UPDATE servicos_painel p SET termos = portal_termos(c.nome, t.tipo, s.protocolo)
FROM servicos s JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
WHERE s.id = p.servico_id AND p.termos::text ~ '''[0-9]{4}[./]';
--> statement-breakpoint
ALTER TABLE servicos_painel ENABLE TRIGGER servicos_painel_palavras_upd;
--> statement-breakpoint
CREATE INDEX servicos_painel_termos_idx ON servicos_painel USING gin (termos) WITH (gin_pending_list_limit = 64);
--> statement-breakpoint
CREATE INDEX servicos_painel_termos_mes_idx ON servicos_painel USING gin (portal_termos_mes(termos, created_at)) WITH (gin_pending_list_limit = 64);
