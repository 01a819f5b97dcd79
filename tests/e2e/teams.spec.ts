import { expect, test, type Browser, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql, subscribe } from './support/db.ts'
import { createUser, signUpViaRequest } from './support/http.ts'
import { readLatestEmail } from './support/outbox.ts'
import { signIn } from './support/auth.ts'
import { DEFAULT_PASSWORD, uniqueEmail, type TestUser } from './support/users.ts'

// Teams (issue 29), with and without JavaScript: an owner invites a capped member and a read-only colleague, they
// join from the emailed link (one signed in, one signing up from it), the read-only one is refused an export, the
// owner sees usage per member, and the activity log lists it all.

const TEAM = '/settings/team'
const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`

async function invite(page: Page, email: string, role: 'Member' | 'Read-only' | 'Admin', cap?: string) {
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role })
  if (cap) await page.getByLabel('Monthly credit cap').fill(cap)
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent.')).toBeVisible()
}

async function invitationLink(email: string): Promise<string> {
  const message = await readLatestEmail(email)
  expect(message.subject).toContain('invites you to')
  expect(message.link).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}$/)
  return new URL(message.link!).pathname
}

async function colleaguePage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled })
  return context.newPage()
}

test.describe('teams', () => {
  test.describe.configure({ timeout: 180_000 })

  test('invite, join by link (signed in, or signing up from it), roles hold, usage per member, activity log', async ({ page, browser, baseURL, request }, testInfo) => {
    const js = testInfo.project.name !== 'chromium-nojs'
    const owner = await signUpViaRequest(page, baseURL, { email: uniqueEmail('owner', testInfo) })
    await subscribe(owner.email, 'professional')
    await page.goto('/settings')
    await page.getByRole('link', { name: /^Team/ }).click()
    await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible()
    await expect(page.getByText('1 of 3 seats used (pending invitations included).')).toBeVisible()

    // Bad input comes back named, with what was typed kept.
    // (An address the browser's own check lets through, so the server's answer is what is tested without JS.)
    await page.getByLabel('Email address').fill('colleague@intranet')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByText('Enter a valid email address.')).toBeVisible()
    await expect(page.getByLabel('Email address')).toHaveValue('colleague@intranet')

    const memberEmail = uniqueEmail('member', testInfo)
    const viewerEmail = uniqueEmail('viewer', testInfo)
    const member: TestUser = await createUser(request, baseURL, { email: memberEmail })
    await invite(page, memberEmail, 'Member', '500')
    await invite(page, viewerEmail, 'Read-only')
    await expect(page.getByTestId('team-invitation')).toHaveCount(2)
    await expect(page.getByText('3 of 3 seats used (pending invitations included).')).toBeVisible()
    await expectNoA11yViolations(page)

    // A fourth is beyond the plan's seats: refused with the way to the plans.
    await page.getByLabel('Email address').fill(uniqueEmail('extra', testInfo))
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByText('Every seat of your plan is taken: upgrade to invite more people.')).toBeVisible()

    // The member already has an account: signs in and accepts.
    const memberPage = await colleaguePage(browser, js)
    await signIn(memberPage, member)
    await memberPage.goto(await invitationLink(memberEmail))
    await expect(memberPage.getByRole('heading', { name: /^Join / })).toBeVisible()
    await expectNoA11yViolations(memberPage)
    await memberPage.getByRole('button', { name: 'Accept and join' }).click()
    await expect(memberPage.getByText('Welcome to the team: you are now working in this workspace.')).toBeVisible()
    await expect(memberPage.getByTestId('workspace-switcher')).toBeVisible()
    await memberPage.getByTestId('credits-summary').click()
    await expect(memberPage.getByTestId('member-share')).toHaveText('500 of 500 left')

    // The read-only colleague signs up from the link, and lands back on it.
    const viewerPage = await colleaguePage(browser, js)
    await viewerPage.goto(await invitationLink(viewerEmail))
    await viewerPage.getByRole('link', { name: 'Create an account' }).click()
    await viewerPage.getByLabel('Email', { exact: true }).fill(viewerEmail)
    await viewerPage.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD)
    await viewerPage.getByRole('button', { name: 'Sign up', exact: true }).click()
    await viewerPage.getByRole('button', { name: 'Skip for now' }).click()
    await viewerPage.waitForURL((url) => url.pathname.startsWith('/invitations/'))
    await viewerPage.getByRole('button', { name: 'Accept and join' }).click()
    await expect(viewerPage.getByText('Welcome to the team: you are now working in this workspace.')).toBeVisible()
    // Read-only: no invitations to send, and the export command refuses.
    await expect(viewerPage.getByRole('button', { name: 'Send invitation' })).toHaveCount(0)
    await viewerPage.goto(SEARCH)
    await expect(viewerPage.locator('table tbody tr').first()).toBeVisible()
    await viewerPage.getByRole('link', { name: 'Enrich and export' }).click()
    const dialog = viewerPage.getByRole('dialog', { name: 'Enrich and export' })
    await dialog.getByLabel('Export name').fill('Not allowed')
    await dialog.getByRole('button', { name: 'Start export' }).click()
    await expect(viewerPage.getByText('Your role in this workspace does not allow this: ask an admin.')).toBeVisible()
    expect(await sql('select 1 from public.exports where name = $1', ['Not allowed'])).toHaveLength(0)

    // The owner sees both, with roles and this month's usage.
    await page.goto(TEAM)
    const rows = page.getByTestId('team-member')
    await expect(rows).toHaveCount(3)
    await expect(rows.filter({ hasText: memberEmail })).toContainText('0 of 500 credits spent this month')
    await expect(rows.filter({ hasText: viewerEmail })).toContainText('0 credits spent this month')
    await expect(page.getByTestId('team-invitation')).toHaveCount(0)

    // Every list can be narrowed to one member's work.
    await page.goto('/exports')
    await page.getByLabel('Created by').selectOption({ label: memberEmail })
    if (!js) await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText('No exports match these filters.')).toBeVisible()
    await expect(page).toHaveURL(/member=[0-9a-f-]{36}/)
    await page.goto(TEAM)

    // Change the viewer into a member, then look at the log.
    await rows.filter({ hasText: viewerEmail }).getByLabel(/^Role of/).selectOption({ label: 'Member' })
    await rows.filter({ hasText: viewerEmail }).getByRole('button', { name: 'Change role' }).click()
    await expect(page.getByText('Role changed.')).toBeVisible()
    // Removing asks first; cancelling changes nothing, confirming removes.
    await rows.filter({ hasText: viewerEmail }).getByRole('link', { name: /^Remove / }).click()
    await expect(page.getByRole('alertdialog', { name: /^Remove .* from the team\?$/ })).toBeVisible()
    await page.getByRole('link', { name: 'Cancel' }).click()
    await expect(rows).toHaveCount(3)
    await rows.filter({ hasText: viewerEmail }).getByRole('link', { name: /^Remove / }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText('Member removed: their API keys are revoked.')).toBeVisible()
    await expect(rows).toHaveCount(2)
    await page.getByRole('link', { name: 'Activity log' }).click()
    await expect(page.getByRole('heading', { name: 'Team activity', level: 1 })).toBeVisible()
    await expect(page.getByTestId('team-event').filter({ hasText: `invited ${memberEmail}` })).toHaveCount(1)
    await expect(page.getByTestId('team-event').filter({ hasText: 'joined the team' })).toHaveCount(2)
    await expectNoA11yViolations(page)
    const csv = await page.request.get('/settings/team/activity.csv')
    expect(csv.headers()['content-type']).toContain('text/csv')
    expect(await csv.text()).toContain('member_joined')

    // The member cannot open the log; the switcher takes them back to their personal workspace.
    const forbidden = await memberPage.request.get('/settings/team/activity')
    expect(forbidden.status()).toBe(403)
    await memberPage.goto('/settings/team')
    await memberPage.getByTestId('workspace-switcher').locator('summary').click()
    await memberPage.getByRole('button', { name: /Personal/ }).click()
    // Switching lands back on the same page, now in the personal workspace.
    await expect(memberPage.getByText('1 of 1 seats used (pending invitations included).')).toBeVisible()
    const { length } = await sql('select 1 from public.workspace_members m join auth.users u on u.id = m.user_id where u.email = $1', [memberEmail])
    expect(length).toBe(2)
  })

  test('screens: the team page at 1440 px in English and 375 px in French, the invitation and the log', async ({ page, browser, baseURL }, testInfo) => {
    test.skip(testInfo.project.name === 'chromium-nojs', 'screenshots once')
    const owner = await signUpViaRequest(page, baseURL, { email: uniqueEmail('screens', testInfo) })
    await subscribe(owner.email, 'premium')
    await page.goto(TEAM)
    const colleague = uniqueEmail('colleague', testInfo)
    await invite(page, colleague, 'Admin', '1000')
    const visitor = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'fr-FR' })
    const invitation = await visitor.newPage()
    await invitation.goto(await invitationLink(colleague))
    await expect(invitation.getByRole('heading', { level: 1 })).toBeVisible()
    await invitation.screenshot({ path: testInfo.outputPath('invitation-375.png'), fullPage: true })
    await expectNoA11yViolations(invitation)
    await visitor.close()
    await page.goto(`${TEAM}/activity`)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.screenshot({ path: testInfo.outputPath('activity-1440-en.png'), fullPage: true })
    await page.goto(TEAM)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.screenshot({ path: testInfo.outputPath('team-1440-en.png'), fullPage: true })
    await page.getByRole('button', { name: 'Français' }).click()
    await page.setViewportSize({ width: 375, height: 800 })
    await expect(page.getByRole('heading', { name: 'Équipe', level: 1 })).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('team-375-fr.png'), fullPage: true })
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(375)
    await expectNoA11yViolations(page)
  })
})
