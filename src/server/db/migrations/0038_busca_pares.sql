-- A protocol pasted with its year ('2024/0015', '0011/2026', 'PRT-2024-0001'): each pair of
-- digit words in a row in the text gets a word of its own, so the GIN index finds the pair in
-- one narrow lookup instead of reading every service of a year (a sixth of them) or every word
-- that starts with a common serial. Two kinds, so that either side of a pair may be the one
-- typed short (the typed part must have the four digits a word keeps):
--   '2024.0015': the first word's first four digits, '.', the second word's leading digits;
--   '0015/2024': the second word's first four digits, '/', the first word's leading digits.
-- Nobody can type them ('.' and '/' split what is typed, palavrasDaBusca), PostgreSQL's parser
-- reads each as one word (a number, a path) in to_tsquery, and a typed prefix of one is a
-- prefix of a real word of the same service, so no search finds more than before. They sit at
-- the last position (16383), next to no word, so no phrase ('2024:* <-> 0015:*') matches across
-- them. The dashboard asks the index for the pair and tests the whole search on each row found
-- (painel-busca.ts, `Contagem.indice`).
CREATE OR REPLACE FUNCTION portal_termos(nome text, tipo text, protocolo text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  WITH texto AS (
    SELECT regexp_replace(
             lower(public.unaccent('public.unaccent'::regdictionary,
               coalesce(nome, '') || ' ' || coalesce(tipo, '') || ' ' || coalesce(protocolo, ''))),
             '[^a-z0-9]+', ' ', 'g') AS t
  ), palavras AS (
    SELECT w[1] AS w, lead(w[1]) OVER (ORDER BY i) AS seguinte
    FROM texto, regexp_matches(texto.t, '[a-z0-9]+', 'g') WITH ORDINALITY AS m(w, i)
  ), pares AS (
    SELECT left(w, 4) || '.' || substring(seguinte from '^[0-9]+') AS par
    FROM palavras WHERE w ~ '^[0-9]{4}' AND seguinte ~ '^[0-9]'
    UNION
    SELECT left(seguinte, 4) || '/' || substring(w from '^[0-9]+')
    FROM palavras WHERE seguinte ~ '^[0-9]{4}' AND w ~ '^[0-9]'
  )
  SELECT to_tsvector('simple'::regconfig, texto.t
           || ' ' || coalesce((
             SELECT string_agg(DISTINCT substr(d, i), ' ')
             FROM regexp_split_to_table(coalesce(protocolo, ''), '[^0-9]+') d,
                  generate_series(2, length(d) - 1) i
             WHERE length(d) > 2), ''))
         || coalesce((SELECT string_agg(quote_literal(par) || ':16383', ' ') FROM pares)::tsvector,
                     ''::tsvector)
  FROM texto
$$;
--> statement-breakpoint
UPDATE servicos_painel p SET termos = portal_termos(c.nome, t.tipo, s.protocolo)
FROM servicos s JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
WHERE s.id = p.servico_id AND p.termos IS DISTINCT FROM portal_termos(c.nome, t.tipo, s.protocolo);
