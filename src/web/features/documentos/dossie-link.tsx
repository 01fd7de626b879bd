import { FolderArchive } from 'lucide-react'
import { buttonVariants } from '../../components/ui/button.tsx'
import { cn } from '../../lib/utils.ts'
import { dossieUrl } from './api.ts'

/**
 * "Dossiê do serviço": a plain link the browser downloads (the server streams the zip), on the
 * service detail and on the client's documents screen.
 */
export function DossieLink({
  servicoId,
  size = 'sm',
  className,
}: {
  servicoId: string
  size?: 'sm' | 'default'
  className?: string
}) {
  return (
    <a
      href={dossieUrl(servicoId)}
      download
      className={cn(buttonVariants({ variant: 'outline', size }), className)}
      title="Todos os documentos aprovados e o índice em PDF, num arquivo ZIP"
    >
      <FolderArchive />
      Dossiê do serviço
    </a>
  )
}
