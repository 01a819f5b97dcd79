import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'

const jsDisabled = () => test.info().project.use.javaScriptEnabled === false

/**
 * axe runs inside the page, which needs JavaScript. For the no-JS project pages are opened in a
 * scratch JS-enabled context (same cookies, viewport and locale) whose scripts are blocked, so
 * axe audits exactly the server-rendered markup a visitor without JavaScript gets.
 */
async function openScratchPage(page: Page) {
  // Explicit: inside a test, newContext() inherits the project's options (JS off here).
  const context = await page.context().browser()!.newContext({
    javaScriptEnabled: true,
    viewport: page.viewportSize(),
    locale: test.info().project.use.locale ?? 'en-US',
  })
  await context.addCookies(await page.context().cookies())
  await context.route(/\.m?js(\?.*)?$/, (route) => route.abort())
  return { scratch: await context.newPage(), close: () => context.close() }
}

/** Fails on serious or critical WCAG 2 A/AA violations of the page as it is now (its URL, without JS). */
export async function expectNoA11yViolations(page: Page) {
  if (!jsDisabled()) return audit(page)
  const { scratch, close } = await openScratchPage(page)
  try {
    await scratch.goto(page.url())
    await audit(scratch)
  } finally {
    await close()
  }
}

/**
 * Audits several URLs in turn with the page's cookies; `ready` runs on each first (wait for content,
 * open a dropdown...). With JS each URL is opened in `page`; without JS only the scratch page loads
 * them, one context for all.
 */
export async function expectNoA11yViolationsAt(page: Page, paths: string[], ready: (target: Page) => Promise<void>) {
  const visit = async (target: Page) => {
    for (const path of paths) {
      await target.goto(new URL(path, test.info().project.use.baseURL).toString())
      await ready(target)
      await audit(target)
    }
  }
  if (!jsDisabled()) return visit(page)
  const { scratch, close } = await openScratchPage(page)
  try {
    await visit(scratch)
  } finally {
    await close()
  }
}

async function audit(target: Page) {
  // Let entrance animations (fade-ins) end first, or axe measures half-transparent colours.
  await target.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => {})),
    ),
  )
  // Only violations are used: skipping the details of passes makes axe noticeably faster.
  const results = await new AxeBuilder({ page: target }).withTags(['wcag2a', 'wcag2aa']).options({ resultTypes: ['violations'] }).analyze()
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  const describe = blocking
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').join(' ')}`).join('\n')}`,
    )
    .join('\n')
  expect(blocking.map((violation) => violation.id), `Accessibility violations on ${target.url()}:\n${describe}`).toEqual([])
}
