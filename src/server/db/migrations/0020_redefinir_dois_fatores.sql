-- `npm run admin:reset-2fa` is an audit event of its own.
ALTER TABLE "auditoria" DROP CONSTRAINT "auditoria_acao_check";--> statement-breakpoint
ALTER TABLE "auditoria" ADD CONSTRAINT "auditoria_acao_check" CHECK (acao in ('criar', 'alterar', 'excluir', 'ler', 'entrar', 'sair', 'falha_entrada', 'dois_fatores', 'papel', 'download', 'email', 'exportar', 'anonimizar', 'redefinir_dois_fatores'));