-- The dashboard's page by month asks the index of words by month (0042) once per month, each
-- month an AND of a few words (`@@ ANY`), instead of one OR over every month: no word is then
-- required of the index, and each row of any month's words was a candidate tested against the
-- whole query (1.5 ms for a first name with a surname over ten months at 1,000,000 services,
-- 0.8 ms asked month by month). Not knowing how many months the array holds, the planner takes
-- ten times the rows and chose a parallel scan with two workers (9 ms for 21 rows). Restricted
-- to the leader, the function keeps every scan that computes it in one process.
ALTER FUNCTION portal_termos_mes(tsvector, timestamptz) PARALLEL RESTRICTED;
