import { expect, test } from '@playwright/test'
import { shot, toast } from './back-office.ts'
import { adminPerfil, login } from './fixtures.ts'

// SPEC §2 "Admin profile", §5 change password, §8 password messages.
test('shows the e-mail and role read-only and changes the password', async ({ page }, info) => {
  // Its own administrator: the change ends that account's other sessions.
  const ADMIN = adminPerfil(info.project.name)
  await login(page, ADMIN)
  await page.goto('/app/admin/meus-dados')
  await expect(page.getByRole('heading', { name: 'Meus Dados', level: 1 })).toBeVisible()
  const email = page.getByLabel('Email')
  await expect(email).toHaveValue(ADMIN.email)
  await expect(email).toHaveAttribute('readonly', '')
  await expect(page.getByLabel('Perfil')).toHaveValue('Administrador')
  await expect(page.getByLabel('Perfil')).toHaveAttribute('readonly', '')

  const atual = page.getByLabel('Senha atual', { exact: true })
  const nova = page.getByLabel('Nova senha', { exact: true })
  const confirmacao = page.getByLabel('Confirmar nova senha')
  const alterar = page.getByRole('button', { name: 'Alterar Senha' })

  await alterar.click()
  await expect(toast(page, 'Por favor, preencha todos os campos de senha.')).toBeVisible()
  await atual.fill(ADMIN.password)
  await nova.fill('abcdef')
  await confirmacao.fill('abcdeg')
  await alterar.click()
  await expect(toast(page, 'Senhas não coincidem')).toBeVisible()
  await expect(toast(page, 'A nova senha e confirmação devem ser iguais.')).toBeVisible()
  await nova.fill('abc')
  await confirmacao.fill('abc')
  await alterar.click()
  await expect(toast(page, 'Senha muito curta')).toBeVisible()
  await expect(toast(page, 'A nova senha deve ter pelo menos 8 caracteres.')).toBeVisible()

  // Show/hide.
  await expect(nova).toHaveAttribute('type', 'password')
  // The second eye is the new password's (the first is the current password's).
  await page.getByRole('button', { name: 'Mostrar senha' }).nth(1).click()
  await expect(nova).toHaveAttribute('type', 'text')
  await page.getByRole('button', { name: 'Ocultar senha' }).first().click()
  await expect(nova).toHaveAttribute('type', 'password')

  // The same password again: other tests keep signing in with it.
  await nova.fill(ADMIN.password)
  await confirmacao.fill(ADMIN.password)
  await shot(page, 'admin-meus-dados', info.project.name)
  await alterar.click()
  await expect(toast(page, 'Senha alterada com sucesso!')).toBeVisible()
  await expect(toast(page, 'Sua senha foi atualizada.')).toBeVisible()
  await expect(nova).toHaveValue('')
  await expect(atual).toHaveValue('')
})
