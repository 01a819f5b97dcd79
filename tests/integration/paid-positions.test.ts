// Never pay twice, quoted before the export: which of the businesses an export would take the user already paid for,
// per option, within the reuse window — read as the user (RLS: another user's purchases never count).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { paidPositions } from '#app/.server/exports/paid-positions.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
let alice: SessionUser
let bob: SessionUser

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return personalSession(id, `${id}@example.test`)
}

async function purchase(user: SessionUser, placeId: string, task: string, daysAgo: number) {
  await admin.query(`insert into public.enrichment_purchases (user_id, source, place_id, task, paid_at) values ($1, 'demo', $2, $3, now() - make_interval(days => $4))`, [
    user.id,
    placeId,
    task,
    daysAgo,
  ])
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createUser()
  bob = await createUser()
  await purchase(alice, 'p2', 'phone', 3)
  await purchase(alice, 'p0', 'phone', 10)
  await purchase(alice, 'p0', 'social_media', 10) // the task's name: the option is "social"
  await purchase(alice, 'p1', 'email', 120) // outside a 90-day window
  await purchase(alice, 'elsewhere', 'phone', 1) // not among the businesses of this export
  await purchase(bob, 'p1', 'phone', 1) // another user's purchase
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('paidPositions', () => {
  test('the positions of the businesses paid within the window, by option key, in the export order', async () => {
    expect(await paidPositions(alice, 'demo', ['p0', 'p1', 'p2', 'p3'], 90)).toEqual({ phone: [0, 2], social: [0] })
    // A wider window brings the older purchase in; another source names other businesses.
    expect(await paidPositions(alice, 'demo', ['p0', 'p1', 'p2', 'p3'], 365)).toEqual({ phone: [0, 2], social: [0], email: [1] })
    expect(await paidPositions(alice, 'osm', ['p0', 'p1'], 365)).toEqual({})
  })

  test("another user's purchases never count, and reuse switched off makes nothing free", async () => {
    expect(await paidPositions(bob, 'demo', ['p0', 'p1', 'p2'], 90)).toEqual({ phone: [1] })
    expect(await paidPositions(alice, 'demo', ['p0', 'p1', 'p2'], 0)).toEqual({})
    expect(await paidPositions(alice, 'demo', [], 90)).toEqual({})
  })
})
