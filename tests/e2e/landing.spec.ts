import { expect, test } from '@playwright/test'

// SPEC §2 "Landing page" and §9 "Landing page figures": 17 years, 7 cities, 5 groups, 5 reasons.
const cidades = [
  'Vitória',
  'Aracruz',
  'Linhares',
  'Colatina',
  'São Mateus',
  'Nova Venécia',
  'Conceição da Barra',
]

test.describe('landing page', () => {
  test('presents the firm, its services, reasons and cities', async ({ page }) => {
    await page.goto('/')

    const inicio = page.getByRole('region', { name: 'Início' })
    await expect(inicio.getByRole('heading', { level: 1 })).toContainText('Licenciamento ambiental')
    await expect(inicio.getByText('17 anos')).toBeVisible()
    await expect(inicio.getByText('multidisciplinar')).toBeVisible()
    for (const [valor, rotulo] of [
      ['17+', 'anos de experiência'],
      ['7', 'cidades atendidas'],
      ['100%', 'comprometimento'],
    ]) {
      await expect(inicio.getByText(valor, { exact: true })).toBeVisible()
      await expect(inicio.getByText(rotulo, { exact: true })).toBeVisible()
    }
    await expect(inicio.getByRole('link', { name: 'Solicitar orçamento' })).toHaveAttribute(
      'href',
      '#contato',
    )
    await expect(inicio.getByRole('link', { name: 'Conheça nossos serviços' })).toHaveAttribute(
      'href',
      '#servicos',
    )

    const servicos = page.getByRole('region', { name: 'Serviços' })
    await expect(servicos.getByRole('article')).toHaveCount(5)
    for (const grupo of await servicos.getByRole('article').all()) {
      await expect(grupo.getByRole('heading', { level: 3 })).toBeVisible()
      expect(await grupo.getByRole('listitem').count()).toBeGreaterThanOrEqual(3)
    }

    const porQue = page.getByRole('region', { name: 'Por que nos escolher' })
    await expect(porQue.getByRole('article')).toHaveCount(5)
    await expect(
      porQue.getByRole('heading', { name: /equipe multidisciplinar a serviço/i }),
    ).toBeVisible()

    const rodape = page.getByRole('contentinfo')
    await expect(
      rodape.getByRole('list', { name: 'Cidades atendidas' }).getByRole('listitem'),
    ).toHaveText(cidades)
    await expect(rodape.getByRole('link', { name: /^\(\d{2}\) \d{4,5}-\d{4}$/ })).toBeVisible()
    await expect(rodape.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/)
    await expect(rodape.getByText(String(new Date().getFullYear()))).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/auth',
    )
  })

  test('the desktop menu links to the sections and can be hidden and shown', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    const menu = page.getByRole('navigation', { name: 'Navegação principal' })
    for (const [nome, href] of [
      ['Início', '#inicio'],
      ['Serviços', '#servicos'],
      ['Por que nos escolher', '#por-que'],
      ['Contato', '#contato'],
    ]) {
      await expect(menu.getByRole('link', { name: nome, exact: true })).toHaveAttribute(
        'href',
        href,
      )
    }

    await page.getByRole('button', { name: 'Ocultar menu' }).click()
    await expect(menu).toBeHidden()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()

    await page.getByRole('button', { name: 'Mostrar menu' }).click()
    await expect(menu.getByRole('link', { name: 'Serviços' })).toBeVisible()
  })

  test('the contact form opens a prefilled WhatsApp chat in a new tab', async ({
    page,
    context,
  }) => {
    // No network in tests: answer the chat link locally so the new tab settles on its URL.
    await context.route('https://wa.me/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }),
    )
    await page.goto('/#contato')
    const contato = page.getByRole('region', { name: 'Contato' })
    const enviar = contato.getByRole('button', { name: 'Enviar mensagem' })

    // SPEC §5: every field is required; the browser blocks an empty form.
    for (const rotulo of ['Nome', 'Email', 'Telefone', 'Mensagem']) {
      await expect(contato.getByLabel(rotulo, { exact: true })).toHaveAttribute('required', '')
    }
    await expect(contato.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email')
    let abriuAba = false
    context.once('page', () => (abriuAba = true))
    await enviar.click()
    const nomeVazio = await contato
      .getByLabel('Nome', { exact: true })
      .evaluate((input: HTMLInputElement) => input.validity.valueMissing)
    expect(nomeVazio).toBe(true)
    expect(abriuAba).toBe(false)

    await contato.getByLabel('Nome', { exact: true }).fill('Maria José da Silva')
    await contato.getByLabel('Email', { exact: true }).fill('maria@example.com')
    await contato.getByLabel('Telefone', { exact: true }).fill('27999991234')
    await contato
      .getByLabel('Mensagem', { exact: true })
      .fill('Preciso renovar a LO & a outorga do poço.')
    await expect(contato.getByLabel('Telefone', { exact: true })).toHaveValue('(27) 99999-1234')

    const novaAba = context.waitForEvent('page')
    await enviar.click()
    const chat = await novaAba
    await chat.waitForURL(/^https:\/\/wa\.me\//)

    const url = new URL(chat.url())
    expect(url.origin).toBe('https://wa.me')
    expect(url.pathname).toMatch(/^\/55\d{10,11}$/)
    const texto = url.searchParams.get('text') ?? ''
    expect(texto).toContain('orçamento')
    expect(texto).toContain('Maria José da Silva')
    expect(texto).toContain('maria@example.com')
    expect(texto).toContain('(27) 99999-1234')
    expect(texto).toContain('Preciso renovar a LO & a outorga do poço.')
    await expect(page).toHaveURL(/\/#contato$/)
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } })

    test('the hamburger opens the section links', { tag: '@phone' }, async ({ page }) => {
      await page.goto('/')
      await expect(page.getByRole('button', { name: 'Ocultar menu' })).toBeHidden()
      await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toBeHidden()
      await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toHaveAttribute(
        'href',
        '/auth',
      )

      await page.getByRole('button', { name: 'Abrir menu' }).click()
      const menu = page.getByRole('navigation', { name: 'Menu' })
      for (const nome of ['Início', 'Serviços', 'Por que nos escolher', 'Contato']) {
        await expect(menu.getByRole('link', { name: nome, exact: true })).toBeVisible()
      }

      await menu.getByRole('link', { name: 'Serviços', exact: true }).click()
      await expect(menu).toBeHidden()
      await expect(page).toHaveURL(/#servicos$/)
      await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeVisible()
    })
  })
})
