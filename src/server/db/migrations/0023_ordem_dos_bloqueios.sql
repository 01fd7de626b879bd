-- One lock order: a service's row before its read-model row (servicos_painel). A PATCH of a
-- service locks the service (SELECT ... FOR UPDATE, then its UPDATE) and then, through the
-- servicos_painel_sync trigger, its painel row. An upload or a review recounted 'Aguardando
-- análise' the other way round: the painel row first, then, checking its foreign key, the service
-- (FOR KEY SHARE), and the two deadlocked (SQLSTATE 40P01). The recount now takes the services'
-- locks first, in id order, so it waits behind a PATCH instead of crossing it.
CREATE OR REPLACE FUNCTION servicos_painel_em_analise(ids uuid[]) RETURNS void
LANGUAGE sql
AS $$
  SELECT 1 FROM servicos WHERE id = ANY(ids) ORDER BY id FOR KEY SHARE;
  UPDATE servicos_painel p SET documentos_em_analise = n.total
  FROM (
    SELECT s.id, (SELECT count(*)::int FROM servicos_tipos_documentos d
                  JOIN documento_versoes v ON v.documento_id = d.id
                  WHERE d.servico_id = s.id AND v.estado = 'enviado') AS total
    FROM unnest(ids) AS s(id)
  ) n
  WHERE p.servico_id = n.id AND p.documentos_em_analise IS DISTINCT FROM n.total
$$;
