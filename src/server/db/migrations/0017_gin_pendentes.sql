-- The search indexes' pending lists. A GIN index puts new entries in a pending list
-- that every search reads whole until it is merged (by VACUUM, or by the write that takes it past
-- gin_pending_list_limit, 4 MB by default). Every change of a dashboard row adds its words again
-- (a new row version), so under ordinary writes the list held thousands of entries between
-- vacuums: a rare surname's page took 2.0 ms instead of 0.4 ms, the GIN lookup 1.8 ms of it.
-- At 64 kB the list is merged a few dozen entries at a time by the writes themselves.
ALTER INDEX "servicos_painel_termos_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "auditoria_termos_idx" SET (gin_pending_list_limit = 64);
