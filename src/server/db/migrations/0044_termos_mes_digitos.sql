-- The words by month (0042) get the words that begin with a digit too, cut to their first four
-- characters: a protocol's digit groups and their tails ('2024', '004217' → '0042', '4217',
-- '217'), and any word of the name or type that starts with a digit. A protocol fragment in a
-- few hundred services or more ('421', '4217' at 1,000,000) read all of its matches from the
-- GIN index and sorted them for its ten newest, or walked the order's index testing thousands of
-- rows, so it cost more the more services there were; now its page asks its newest months, as a
-- word's does (`modeloDosMeses`: a longer part is asked by its first four characters, and the
-- search itself is tested on each row found). Cut, the words of a month share a few thousand
-- keys (uncut, each tail of a seven-digit number was a key of its own: the index went from 65
-- to 167 MB at 1,000,000 services). Left out: the words of fewer than three characters that
-- begin with a digit (the two-digit tails, '17'), so a typed part that begins with a digit is
-- asked by month only from three characters on; and the pairs of 0039 ('2024.0042',
-- '0042/2024'), whose prefixes are prefixes of a word the service has anyway. Still restricted
-- to the leader (0043).
CREATE OR REPLACE FUNCTION portal_termos_mes(termos tsvector, criado timestamptz) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL RESTRICTED AS $$
  SELECT array_to_tsvector(coalesce(array_agg(DISTINCT m.mes || CASE WHEN w ~ '^[a-z]' THEN w ELSE left(w, 4) END), '{}'))
  FROM (SELECT to_char(criado AT TIME ZONE 'UTC', 'YYYYMM') || '.' AS mes) m,
       unnest(tsvector_to_array(termos)) w
  WHERE w ~ '^[a-z]' OR w ~ '^[0-9][a-z0-9]{2,}$'
$$;--> statement-breakpoint
REINDEX INDEX servicos_painel_termos_mes_idx;
