// When the plan cannot be read, a decision is never made on the free trial's rules (issue 28, item 1): the header may
// show 0/0 and Free Trial (SPEC §8), but the plan rules of a search, a preview or an export answer 503 instead.
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { getCreditsSummary, requireCreditsSummary } from '#app/.server/credits.ts'
import { closeDb } from '#app/.server/db.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
})
afterAll(() => closeDb())

// Claims withUser refuses before any query: the read fails, as it does when the database cannot answer.
const unreadable = (): SessionUser => personalSession('not-a-user')

test('the header falls back to 0/0 and Free Trial, marked unavailable', async () => {
  expect(await getCreditsSummary(unreadable())).toEqual({ remaining: 0, total: 0, plan: 'free_trial', nextReloadDate: null, ok: false })
})

test('a decision on the plan answers 503 with Retry-After, never free_trial', async () => {
  const user = unreadable()
  const thrown = await requireCreditsSummary(user).then(
    () => null,
    (error: unknown) => error,
  )
  // React Router's data(): the page's error boundary says "try again", the API answers a 503 problem.
  expect(thrown).toMatchObject({ type: 'DataWithResponseInit', init: { status: 503, headers: { 'Retry-After': '5' } } })
  // The header of the same request still renders (one read per request, shared).
  expect((await getCreditsSummary(user)).ok).toBe(false)
})
