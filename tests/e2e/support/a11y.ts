import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'

/**
 * axe runs inside the page, which needs JavaScript. For the no-JS project the same URL is opened
 * in a scratch JS-enabled context (same cookies, viewport and locale) whose scripts are blocked,
 * so axe audits exactly the server-rendered markup a visitor without JavaScript gets.
 */
async function withAuditablePage(page: Page, audit: (target: Page) => Promise<void>) {
  if (test.info().project.use.javaScriptEnabled !== false) return audit(page)
  // Explicit: inside a test, newContext() inherits the project's options (JS off here).
  const context = await page.context().browser()!.newContext({
    javaScriptEnabled: true,
    viewport: page.viewportSize(),
    locale: test.info().project.use.locale ?? 'en-US',
  })
  try {
    await context.addCookies(await page.context().cookies())
    await context.route(/\.m?js(\?.*)?$/, (route) => route.abort())
    const target = await context.newPage()
    await target.goto(page.url())
    await audit(target)
  } finally {
    await context.close()
  }
}

/** Fails on serious or critical WCAG 2 A/AA violations of the page as it is now. */
export async function expectNoA11yViolations(page: Page) {
  await withAuditablePage(page, async (target) => {
    // Let entrance animations (fade-ins) end first, or axe measures half-transparent colours.
    await target.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
          .map((animation) => animation.finished.catch(() => {})),
      ),
    )
    const results = await new AxeBuilder({ page: target }).withTags(['wcag2a', 'wcag2aa']).analyze()
    const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    const describe = blocking
      .map(
        (violation) =>
          `[${violation.impact}] ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').join(' ')}`).join('\n')}`,
      )
      .join('\n')
    expect(blocking.map((violation) => violation.id), `Accessibility violations on ${page.url()}:\n${describe}`).toEqual([])
  })
}
