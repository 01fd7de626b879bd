// the checks of a screen, shared by layout.spec.ts (every route at three widths) and the
// specs of screens it cannot reach by URL alone (the administrator's 2FA enrolment).
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Nothing is wider than the window. */
export async function expectNoOverflow(page: Page, route: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, `${route} at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth)
}

/**
 * No table scrolls sideways inside its border (the page does not overflow then, so
 * expectNoOverflow cannot see a column hidden behind the scroll).
 */
export async function expectNoTableScroll(page: Page, route: string) {
  const scrolling = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('table')]
      .filter((t) => t.checkVisibility())
      .map((t) => ({ box: t.parentElement!, label: t.getAttribute('aria-label') ?? '' }))
      .filter(({ box }) => box.scrollWidth > box.clientWidth + 1)
      .map(({ box, label }) => `${label}: ${box.scrollWidth} px in ${box.clientWidth} px`),
  )
  expect(
    scrolling,
    `${route} at ${page.viewportSize()?.width} px: tables scrolling sideways`,
  ).toEqual([])
}

/** axe-core's WCAG 2.1 A/AA rules: no serious or critical violation. */
export async function expectAccessible(page: Page, route: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  const grave = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(grave, `${route} at ${page.viewportSize()?.width} px`).toEqual([])
}

/**
 * One h1, and going down the page a heading is at most one level deeper than the one before
 * (axe's heading-order is only 'moderate', so it is checked here). Hidden headings do not count.
 */
export async function expectHeadingOrder(page: Page, route: string) {
  const levels = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')]
      .filter((h) => h.checkVisibility())
      .map((h) => ({
        level: Number(h.getAttribute('aria-level') ?? h.tagName.slice(1)),
        text: h.textContent?.trim().slice(0, 40),
      })),
  )
  const where = `${route} at ${page.viewportSize()?.width} px`
  expect(levels.filter((h) => h.level === 1).length, `${where}: one h1`).toBe(1)
  const skips = levels.filter((h, i) => h.level > (i === 0 ? 0 : levels[i - 1].level) + 1)
  expect(skips, `${where}: headings that skip a level`).toEqual([])
}
