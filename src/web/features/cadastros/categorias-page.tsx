import { NomeDescricaoPage } from './nome-descricao-page.tsx'
import { CategoriaFormSchema } from '#shared/schemas/cadastros.ts'

export function CategoriasPage() {
  return (
    <NomeDescricaoPage
      resource="categorias"
      schema={CategoriaFormSchema}
      texts={{
        title: 'Categorias',
        description: 'Grupos de serviços que o cliente escolhe no primeiro passo da solicitação.',
        singular: 'categoria',
        article: 'a',
        plural: (n) => `${n} categoria${n === 1 ? '' : 's'}`,
        novo: 'Nova Categoria',
        searchPlaceholder: 'Buscar por nome...',
        loadError: 'Não foi possível carregar as categorias.',
        saveError: 'Não foi possível salvar a categoria.',
        deleteError: 'Não foi possível excluir a categoria.',
        deleted: 'Categoria excluída com sucesso!',
        emptyTitle: 'Nenhuma categoria cadastrada',
        emptyDescription: 'Crie a primeira categoria para organizar os tipos de serviço.',
      }}
    />
  )
}
