import { expect, test } from '@playwright/test'
import { shot, toast } from './back-office.ts'
import {
  ADMIN,
  BASE_URL,
  CLIENTE,
  linkIn,
  login,
  newClientAccount,
  readMail,
  uniqueEmail,
} from './fixtures.ts'

test.describe('route guard and redirects', () => {
  test('anonymous visitors are sent to /auth from every /app route', async ({ page }) => {
    for (const path of [
      '/app',
      '/app/usuario/dashboard',
      '/app/admin/servicos',
      '/app/meus-dados',
    ]) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/auth$/)
      await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible()
    }
  })

  test('unknown paths go to the landing page', async ({ page }) => {
    await page.goto('/caminho/que/nao/existe')
    await expect(page).toHaveURL(`${BASE_URL}/`)
    await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible()
  })

  test('a client is routed to Meus Serviços and kept out of admin routes', async ({ page }) => {
    await login(page, CLIENTE)
    await page.goto('/')
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
    await page.goto('/app/admin/servicos')
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
    await page.goto('/app/admin/cadastros/clientes')
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
    // /app index replaces the history entry.
    await page.goto('/app')
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
  })

  test('an admin is routed to the global dashboard and kept out of client routes', async ({
    page,
  }) => {
    await login(page, ADMIN)
    await page.goto('/app')
    await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
    await page.goto('/app/meus-dados')
    await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
    await page.goto('/auth')
    await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
  })
})

test.describe('/auth', () => {
  test('login validation, failure and success toasts', async ({ page }) => {
    await page.goto('/auth')
    await page.getByRole('button', { name: 'Entrar' }).click()
    // The toast (SPEC §5) and, beside each field, its error.
    await expect(toast(page, 'Por favor, preencha todos os campos.')).toBeVisible()
    await expect(page.locator('#login-email-erro')).toHaveText(
      'Por favor, preencha todos os campos.',
    )
    await expect(page.locator('#login-password-erro')).toHaveText(
      'Por favor, preencha todos os campos.',
    )
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')

    await page.getByLabel('Email').fill(CLIENTE.email)
    await page.getByLabel('Senha', { exact: true }).fill('senha-errada')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('Erro ao fazer login')).toBeVisible()
    await expect(page.getByText('Email ou senha inválidos.')).toBeVisible()

    // show/hide password
    const senha = page.getByLabel('Senha', { exact: true })
    await expect(senha).toHaveAttribute('type', 'password')
    await page.getByRole('button', { name: 'Mostrar senha' }).click()
    await expect(senha).toHaveAttribute('type', 'text')

    await senha.fill(CLIENTE.password)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('Login realizado com sucesso!')).toBeVisible()
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
  })

  test('sign-up, confirmation from the e-mail, then sign-in @responsive', async ({ page }) => {
    const email = uniqueEmail('cadastro')
    await page.goto('/auth')
    await page.getByRole('tab', { name: 'Cadastro' }).click()
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(toast(page, 'Por favor, preencha todos os campos.')).toBeVisible()
    await expect(page.locator('#register-email-erro')).toHaveText(
      'Por favor, preencha todos os campos.',
    )

    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Senha', { exact: true }).fill('12345')
    // The privacy notice and terms must be accepted (both linked) before anything is sent.
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(page.locator('#register-aceite-erro')).toHaveText(
      'Para criar sua conta, aceite a Política de Privacidade e os Termos de Uso.',
    )
    await expect(page.getByRole('link', { name: 'Política de Privacidade' })).toHaveAttribute(
      'href',
      '/privacidade',
    )
    await expect(page.getByRole('link', { name: 'Termos de Uso' })).toHaveAttribute(
      'href',
      '/termos',
    )
    await page.getByLabel('Li e aceito a Política de Privacidade e os Termos de Uso').check()
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(page.getByText('Erro ao criar conta')).toBeVisible()
    await expect(page.getByText('A senha deve ter pelo menos 8 caracteres.')).toBeVisible()

    await page.getByLabel('Senha', { exact: true }).fill('minha-senha-1')
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(page.getByText('Conta criada com sucesso!')).toBeVisible()
    await expect(page.getByText('Verifique seu email para confirmar a conta.')).toBeVisible()

    // Not confirmed yet: sign-in is refused.
    await page.getByRole('tab', { name: 'Login' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Senha', { exact: true }).fill('minha-senha-1')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('Erro ao fazer login')).toBeVisible()

    const mail = await readMail(email)
    expect(mail.subject).toBe('Confirme seu email - Portal do Cliente')
    await page.goto(linkIn(mail, `${BASE_URL}/api/auth/verify-email`))
    await expect(page).toHaveURL(/\/app\//)
    if (test.info().project.name === 'phone') {
      // On a phone the e-mail and Sair live in the side menu.
      await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
      await expect(
        page.getByRole('dialog', { name: 'Menu lateral' }).getByText(email),
      ).toBeVisible()
    } else {
      await expect(page.getByRole('banner').getByText(email)).toBeVisible()
    }

    await page.getByRole('button', { name: 'Sair' }).click()
    await expect(page).toHaveURL(/\/auth$/)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Senha', { exact: true }).fill('minha-senha-1')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('Login realizado com sucesso!')).toBeVisible()
    await expect(page).toHaveURL(/\/app\//)
  })

  test('closing the Recuperar Senha dialog with an e-mail typed asks first', async ({
    page,
  }, info) => {
    await page.goto('/auth')
    const esqueceu = page.getByRole('button', { name: 'Esqueceu sua senha?' })
    const dialog = page.getByRole('dialog', { name: 'Recuperar Senha' })
    const sair = page.getByRole('alertdialog', { name: 'Sair sem salvar?' })

    // Nothing typed: it closes at once.
    await esqueceu.click()
    await expect(dialog).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(sair).toBeHidden()

    // Typed: Esc asks; Cancelar keeps the dialog and what was typed.
    await esqueceu.click()
    await dialog.getByLabel('Email').fill('rascunho@exemplo.com')
    await page.keyboard.press('Escape')
    await expect(sair).toContainText(
      'As alterações que você fez neste formulário ainda não foram salvas.',
    )
    await shot(page, 'auth-recuperar-sair-sem-salvar', info.project.name)
    await sair.getByRole('button', { name: 'Cancelar' }).click()
    await expect(sair).toBeHidden()
    await expect(dialog.getByLabel('Email')).toHaveValue('rascunho@exemplo.com')

    // The X asks too; "Sair sem salvar" closes it, and it opens again empty.
    await dialog.getByRole('button', { name: 'Fechar' }).click()
    await sair.getByRole('button', { name: 'Sair sem salvar' }).click()
    await expect(dialog).toBeHidden()
    await esqueceu.click()
    await expect(dialog.getByLabel('Email')).toHaveValue('')
    await dialog.getByRole('button', { name: 'Cancelar' }).click()
    await expect(dialog).toBeHidden()
  })

  test('forgot password: dialog, e-mail, new password screen', async ({ page, request }) => {
    const account = await newClientAccount(request)
    await page.goto('/auth')
    await page.getByRole('button', { name: 'Esqueceu sua senha?' }).click()
    const dialog = page.getByRole('dialog', { name: 'Recuperar Senha' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Enviar link' }).click()
    await expect(toast(page, 'Por favor, digite seu email.')).toBeVisible()
    await expect(dialog.locator('#reset-email-erro')).toHaveText('Por favor, digite seu email.')

    await dialog.getByLabel('Email').fill(account.email)
    await dialog.getByRole('button', { name: 'Enviar link' }).click()
    await expect(page.getByText('Email enviado!')).toBeVisible()
    await expect(
      page.getByText('Verifique sua caixa de entrada para redefinir a senha.'),
    ).toBeVisible()
    await expect(dialog.getByLabel('Email')).toHaveValue('')

    const mail = await readMail(account.email)
    expect(mail.subject).toBe('Redefinição de senha - Portal do Cliente')
    await page.goto(linkIn(mail, `${BASE_URL}/auth/redefinir-senha?token=`))
    await expect(page.getByRole('heading', { name: 'Redefinir senha' })).toBeVisible()
    await page.getByLabel('Nova senha', { exact: true }).fill('trocada-123')
    await page.getByLabel('Confirmar nova senha').fill('trocada-124')
    await page.getByRole('button', { name: 'Salvar nova senha' }).click()
    await expect(page.getByText('Senhas não coincidem')).toBeVisible()
    await expect(page.locator('#confirmacao-erro')).toHaveText(
      'A nova senha e confirmação devem ser iguais.',
    )
    await page.getByLabel('Confirmar nova senha').fill('trocada-123')
    await page.getByRole('button', { name: 'Salvar nova senha' }).click()
    await expect(page.getByText('Senha alterada com sucesso!')).toBeVisible()
    await expect(page).toHaveURL(/\/auth$/)

    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Senha', { exact: true }).fill('trocada-123')
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('Login realizado com sucesso!')).toBeVisible()
  })
})
