import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Fails on serious or critical WCAG 2 A/AA violations; minor/moderate ones are listed in the message only. */
export async function expectNoA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  const describe = (list: typeof results.violations) =>
    list
      .map((violation) => `[${violation.impact}] ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')} — ${node.failureSummary?.split('\n').join(' ')}`).join('\n')}`)
      .join('\n')
  expect(blocking, `Accessibility violations on ${page.url()}:\n${describe(blocking)}`).toEqual([])
}
