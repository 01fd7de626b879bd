import { NomeDescricaoPage } from './nome-descricao-page.tsx'
import { StatusFormSchema } from '#shared/schemas/cadastros.ts'

export function StatusPage() {
  return (
    <NomeDescricaoPage
      resource="status"
      schema={StatusFormSchema}
      texts={{
        title: 'Status',
        description: 'Situações que um serviço pode assumir ao longo do atendimento.',
        singular: 'status',
        article: 'o',
        plural: (n) => `${n} status`,
        novo: 'Novo Status',
        searchPlaceholder: 'Buscar por nome...',
        loadError: 'Não foi possível carregar os status.',
        saveError: 'Não foi possível salvar o status.',
        deleteError: 'Não foi possível excluir o status.',
        deleted: 'Status excluído com sucesso!',
        emptyTitle: 'Nenhum status cadastrado',
        emptyDescription: 'Crie os status que os serviços podem assumir.',
      }}
    />
  )
}
