import type { ReactNode } from 'react'
import { ShieldCheck } from 'lucide-react'
import { PageHeader } from '../../components/page-header.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import { useMe } from '../../lib/session.ts'
import { AlterarSenhaCard } from './alterar-senha-card.tsx'
import { EmpresaCard } from './empresa-card.tsx'
import { SegurancaCard } from './dois-fatores.tsx'
import { SessoesCard } from './sessoes-card.tsx'

/**
 * SPEC §2 "Admin profile": read-only e-mail and role, the change-password form, and
 * the second factor (no "Desativar": mandatory for administrators) and the open sessions; issue
 * 17: "Dados da empresa", the firm's name and contact that sign every e-mail.
 */
export function Perfil({ extra }: { extra?: ReactNode } = {}) {
  const { data: me } = useMe()

  return (
    <>
      <PageHeader title="Meus Dados" description="Informações da sua conta de administrador." />
      <div className="grid max-w-3xl gap-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck className="size-5 text-primary" />
              Informações da conta
            </CardTitle>
            <CardDescription>Estes dados não podem ser alterados aqui.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="admin-email">Email</Label>
              <Input id="admin-email" type="email" readOnly value={me?.user.email ?? ''} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="admin-perfil">Perfil</Label>
              <Input id="admin-perfil" readOnly value="Administrador" />
            </div>
          </CardContent>
        </Card>

        <EmpresaCard />
        <AlterarSenhaCard />
        <SegurancaCard />
        <SessoesCard />
        {extra}
      </div>
    </>
  )
}
