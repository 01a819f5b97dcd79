import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'

const scratchPages = new WeakMap<Page, Promise<Page>>()

/**
 * axe runs inside the page, which needs JavaScript. For the no-JS project the same URL is opened
 * in a scratch JS-enabled context (same cookies, viewport and locale) whose scripts are blocked,
 * so axe audits exactly the server-rendered markup a visitor without JavaScript gets. One scratch
 * page per test page; it closes with the test's context.
 */
function scratchPageFor(page: Page): Promise<Page> {
  let scratch = scratchPages.get(page)
  if (!scratch) {
    scratch = (async () => {
      // Explicit: inside a test, newContext() inherits the project's options (JS off here).
      const context = await page.context().browser()!.newContext({
        javaScriptEnabled: true,
        viewport: page.viewportSize(),
        locale: test.info().project.use.locale ?? 'en-US',
      })
      page.context().once('close', () => void context.close().catch(() => {}))
      await context.route(/\.m?js(\?.*)?$/, (route) => route.abort())
      return context.newPage()
    })()
    scratchPages.set(page, scratch)
  }
  return scratch
}

/** Fails on serious or critical WCAG 2 A/AA violations of the page as it is now. */
export async function expectNoA11yViolations(page: Page) {
  let target = page
  if (test.info().project.use.javaScriptEnabled === false) {
    target = await scratchPageFor(page)
    await target.context().clearCookies()
    await target.context().addCookies(await page.context().cookies())
    await target.goto(page.url())
  }
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
}
