// Row-level security: user-side queries go through withUser() exactly as the app's do.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { adminDb, closeDb, withUser, type Database } from '#app/.server/db.ts'

let admin: pg.Pool
let a: string // owns one of everything
let b: string // the neighbour who must see none of it
const ids = { exportId: '', leadId: '', subscriptionId: '' }

/** Every user table and its owner column. */
const OWNED: Array<[keyof Database, 'id' | 'user_id']> = [
  ['users', 'id'],
  ['user_credits', 'user_id'],
  ['credit_ledger', 'user_id'],
  ['user_subscriptions', 'user_id'],
  ['exports', 'user_id'],
  ['leads', 'user_id'],
  ['export_leads', 'user_id'],
  ['do_not_contact', 'user_id'],
]

async function createAuthUser(meta: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, meta])
  return id
}

/** Seeds a subscription, export, lead and link for `userId` through the privileged connection. */
async function seed(userId: string) {
  const db = adminDb()
  const sub = await db
    .insertInto('user_subscriptions')
    .values({ user_id: userId, plan_id: 'basic', status: 'active', frequency: 'monthly', current_period_end: new Date(Date.now() + 864e5) })
    .returning('id')
    .executeTakeFirstOrThrow()
  const exp = await db
    .insertInto('exports')
    .values({ user_id: userId, name: 'Bakeries Lyon', status: 'processing', enrichment_options: { email: true } })
    .returning('id')
    .executeTakeFirstOrThrow()
  const lead = await db
    .insertInto('leads')
    .values({ user_id: userId, source: 'demo', place_id: randomUUID(), name: 'Boulangerie' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('export_leads').values({ export_id: exp.id, lead_id: lead.id, user_id: userId, position: 0 }).execute()
  await db.insertInto('do_not_contact').values({ user_id: userId, kind: 'domain', value: 'exemple.fr' }).execute()
  return { exportId: exp.id, leadId: lead.id, subscriptionId: sub.id }
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  a = await createAuthUser({ first_name: 'Alice', company: 'A Corp' })
  b = await createAuthUser({ first_name: 'Bob' })
  Object.assign(ids, await seed(a))
  await seed(b)
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('reading', () => {
  test('a user sees their own rows in every table', async () => {
    await withUser({ sub: a }, async (trx) => {
      for (const [table, owner] of OWNED) {
        const rows = await trx.selectFrom(table).select(owner).execute()
        expect(rows.length, table).toBeGreaterThan(0)
        expect(new Set(rows.map((row) => (row as Record<string, string>)[owner])), table).toEqual(new Set([a]))
      }
      // The export detail query: links joined to leads, paged.
      const page = await trx
        .selectFrom('export_leads')
        .innerJoin('leads', 'leads.id', 'export_leads.lead_id')
        .selectAll('leads')
        .select('export_leads.email_status')
        .where('export_leads.export_id', '=', ids.exportId)
        .orderBy('export_leads.position')
        .limit(10)
        .execute()
      expect(page.map((row) => row.name)).toEqual(['Boulangerie'])
    })
  })

  test("a user sees none of another user's rows, even when asking for them by id", async () => {
    await withUser({ sub: b }, async (trx) => {
      for (const [table, owner] of OWNED) {
        const rows = await trx.selectFrom(table).select(owner).where(owner, '=', a).execute()
        expect(rows, table).toEqual([])
      }
      expect(await trx.selectFrom('exports').selectAll().where('id', '=', ids.exportId).execute()).toEqual([])
    })
  })

  test('enrichment_results (shared by all users) is invisible to users', async () => {
    await adminDb().insertInto('enrichment_results').values({ source: 'demo', place_id: `rls-${randomUUID()}`, task: 'email', value: { email: ['a@b.fr'] } }).execute()
    await expect(withUser({ sub: a }, (trx) => trx.selectFrom('enrichment_results').selectAll().execute())).rejects.toThrow(
      /permission denied/,
    )
  })

  test("enrichment_purchases: a user reads their own, never another's, and writes none", async () => {
    const placeId = `rls-${randomUUID()}`
    await adminDb().insertInto('enrichment_purchases').values({ user_id: a, source: 'demo', place_id: placeId, task: 'phone' }).execute()
    const own = await withUser({ sub: a }, (trx) => trx.selectFrom('enrichment_purchases').select('place_id').where('place_id', '=', placeId).execute())
    expect(own).toEqual([{ place_id: placeId }])
    const theirs = await withUser({ sub: b }, (trx) => trx.selectFrom('enrichment_purchases').select('place_id').where('place_id', '=', placeId).execute())
    expect(theirs).toEqual([])
    await expect(
      withUser({ sub: b }, (trx) => trx.insertInto('enrichment_purchases').values({ user_id: b, source: 'demo', place_id: placeId, task: 'email' }).execute()),
    ).rejects.toThrow(/permission denied/)
    await expect(
      withUser({ sub: a }, (trx) => trx.deleteFrom('enrichment_purchases').where('place_id', '=', placeId).execute()),
    ).rejects.toThrow(/permission denied/)
  })
})

describe("writing another user's rows", () => {
  test('updates and deletes of their rows touch nothing', async () => {
    await withUser({ sub: b }, async (trx) => {
      const results = [
        await trx.updateTable('users').set({ first_name: 'Hacked' }).where('id', '=', a).executeTakeFirst(),
        await trx.updateTable('exports').set({ name: 'Hacked' }).where('user_id', '=', a).executeTakeFirst(),
        await trx.updateTable('leads').set({ name: 'Hacked' }).where('user_id', '=', a).executeTakeFirst(),
        await trx.updateTable('export_leads').set({ email_status: 'success' }).where('user_id', '=', a).executeTakeFirst(),
      ]
      for (const result of results) expect(result.numUpdatedRows).toBe(0n)
      const deletes = [
        await trx.deleteFrom('export_leads').where('user_id', '=', a).executeTakeFirst(),
        await trx.deleteFrom('leads').where('user_id', '=', a).executeTakeFirst(),
        await trx.deleteFrom('exports').where('user_id', '=', a).executeTakeFirst(),
      ]
      for (const result of deletes) expect(result.numDeletedRows).toBe(0n)
    })
    const { rows } = await admin.query(
      `select (select first_name from public.users where id = $1) as first_name,
              (select count(*)::int from public.exports where user_id = $1 and name = 'Bakeries Lyon') as exports,
              (select count(*)::int from public.export_leads where user_id = $1 and email_status = 'not_required') as links`,
      [a],
    )
    expect(rows[0]).toEqual({ first_name: 'Alice', exports: 1, links: 1 })
  })

  test('inserting rows in their name is refused', async () => {
    const attempts: Array<[string, (trx: Parameters<Parameters<typeof withUser>[1]>[0]) => Promise<unknown>]> = [
      ['exports', (trx) => trx.insertInto('exports').values({ user_id: a, name: 'Spoof' }).execute()],
      ['leads', (trx) => trx.insertInto('leads').values({ user_id: a, source: 'demo', place_id: 'spoof' }).execute()],
      ['do_not_contact', (trx) => trx.insertInto('do_not_contact').values({ user_id: a, kind: 'domain', value: 'spoof.fr' }).execute()],
      [
        'export_leads',
        (trx) => trx.insertInto('export_leads').values({ export_id: ids.exportId, lead_id: ids.leadId, user_id: a, position: 1 }).execute(),
      ],
    ]
    for (const [table, attempt] of attempts) {
      await expect(withUser({ sub: b }, attempt), table).rejects.toThrow(/row-level security/)
    }
  })

  test("own user_id does not allow linking a lead into their export", async () => {
    const own = await withUser({ sub: b }, (trx) =>
      trx.insertInto('leads').values({ user_id: b, source: 'demo', place_id: randomUUID() }).returning('id').executeTakeFirstOrThrow(),
    )
    await expect(
      withUser({ sub: b }, (trx) =>
        trx.insertInto('export_leads').values({ export_id: ids.exportId, lead_id: own.id, user_id: b, position: 9 }).execute(),
      ),
    ).rejects.toThrow(/row-level security/)
  })

  test('moving an own row over to them is refused', async () => {
    await expect(
      withUser({ sub: b }, (trx) => trx.updateTable('exports').set({ user_id: a }).where('user_id', '=', b).execute()),
    ).rejects.toThrow(/row-level security/)
  })
})

describe('own rows', () => {
  test('full CRUD on exports, leads and export_leads', async () => {
    const user = await createAuthUser()
    await withUser({ sub: user }, async (trx) => {
      const exp = await trx
        .insertInto('exports')
        .values({ user_id: user, name: 'Mine', status: 'processing', search_status: 'pending', enrichment_status: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow()
      const lead = await trx.insertInto('leads').values({ user_id: user, source: 'demo', place_id: 'x' }).returning('id').executeTakeFirstOrThrow()
      await trx.insertInto('export_leads').values({ export_id: exp.id, lead_id: lead.id, user_id: user, position: 0, phone_status: 'pending' }).execute()
      const updated = await trx.updateTable('export_leads').set({ phone_status: 'success' }).where('export_id', '=', exp.id).executeTakeFirst()
      expect(updated.numUpdatedRows).toBe(1n)
      await trx.updateTable('exports').set({ lead_count: 1, status: 'completed' }).where('id', '=', exp.id).execute()
      const deleted = await trx.deleteFrom('exports').where('id', '=', exp.id).executeTakeFirst()
      expect(deleted.numDeletedRows).toBe(1n)
      expect(await trx.selectFrom('export_leads').selectAll().execute()).toEqual([]) // cascaded
    })
  })

  test('profile: settings fields are editable, nothing else', async () => {
    const user = await createAuthUser({ first_name: 'Old' })
    await withUser({ sub: user }, (trx) =>
      trx.updateTable('users').set({ first_name: 'New', last_name: 'Name', company_name: 'Co', phone: '+33 6' }).where('id', '=', user).execute(),
    )
    const row = await adminDb().selectFrom('users').selectAll().where('id', '=', user).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ first_name: 'New', last_name: 'Name', company_name: 'Co', phone: '+33 6' })
    await expect(
      withUser({ sub: user }, (trx) => trx.updateTable('users').set({ created_at: new Date(0) }).where('id', '=', user).execute()),
    ).rejects.toThrow(/permission denied/)
    await expect(withUser({ sub: user }, (trx) => trx.deleteFrom('users').where('id', '=', user).execute())).rejects.toThrow(
      /permission denied/,
    )
  })

  test('credits, ledger and subscriptions are read-only for their owner', async () => {
    const writes: Array<[string, (trx: Parameters<Parameters<typeof withUser>[1]>[0]) => Promise<unknown>]> = [
      ['update user_credits', (trx) => trx.updateTable('user_credits').set({ remaining_credits: 1_000_000 }).where('user_id', '=', a).execute()],
      ['insert user_credits', (trx) => trx.insertInto('user_credits').values({ user_id: a, remaining_credits: 5 }).execute()],
      ['delete user_credits', (trx) => trx.deleteFrom('user_credits').where('user_id', '=', a).execute()],
      [
        'insert credit_ledger',
        (trx) => trx.insertInto('credit_ledger').values({ user_id: a, delta: 500, balance_after: 600, reason: 'adjustment' }).execute(),
      ],
      ['delete credit_ledger', (trx) => trx.deleteFrom('credit_ledger').where('user_id', '=', a).execute()],
      ['update user_subscriptions', (trx) => trx.updateTable('user_subscriptions').set({ plan_id: 'premium' }).where('user_id', '=', a).execute()],
      [
        'insert user_subscriptions',
        (trx) => trx.insertInto('user_subscriptions').values({ user_id: a, plan_id: 'premium', status: 'active' }).execute(),
      ],
    ]
    for (const [name, write] of writes) {
      await expect(withUser({ sub: a }, write), name).rejects.toThrow(/permission denied/)
    }
    const credits = await adminDb().selectFrom('user_credits').selectAll().where('user_id', '=', a).executeTakeFirstOrThrow()
    expect(credits.remaining_credits).toBe(100)
  })
  test('TRUNCATE, which RLS does not filter, is not granted', async () => {
    await expect(withUser({ sub: a }, (trx) => sql`truncate public.exports cascade`.execute(trx))).rejects.toThrow(/permission denied/)
  })
})

describe('anon', () => {
  test('anon can read or write nothing', async () => {
    const client = await admin.connect()
    try {
      for (const [table] of [...OWNED, ['enrichment_results'], ['enrichment_purchases']]) {
        await client.query('begin')
        await client.query("set local role anon; select set_config('request.jwt.claims', '{\"role\":\"anon\"}', true)")
        await expect(client.query(`select * from public.${table}`), table).rejects.toThrow(/permission denied/)
        await client.query('rollback')
      }
    } finally {
      await client.query('rollback')
      client.release()
    }
  })
})

describe('withUser', () => {
  test('settings end with the transaction, so pooled connections stay privileged-clean', async () => {
    const inside = await withUser({ sub: a, email: 'alice@example.test' }, async (trx) => {
      // current_user is the effective role; auth.jwt() carries the extra claims.
      const { rows } = await sql<{ role: string; uid: string; email: string }>`
        select current_user as role, auth.uid()::text as uid, auth.jwt() ->> 'email' as email`.execute(trx)
      return rows[0]
    })
    expect(inside).toEqual({ role: 'authenticated', uid: a, email: 'alice@example.test' })

    // Exhaust the pool with privileged queries: none may still carry a's identity.
    const after = await Promise.all(
      Array.from({ length: 10 }, () =>
        adminDb()
          .selectNoFrom((eb) => [
            eb.fn<string>('current_setting', [eb.val('role')]).as('role'),
            eb.fn<string | null>('current_setting', [eb.val('request.jwt.claims'), eb.val(true)]).as('claims'),
          ])
          .executeTakeFirstOrThrow(),
      ),
    )
    for (const row of after) {
      expect(row.role).toBe('none')
      expect(row.claims ?? '').toBe('')
    }
  })

  test('rolls back on error', async () => {
    const name = `rollback-${randomUUID()}`
    await expect(
      withUser({ sub: a }, async (trx) => {
        await trx.insertInto('exports').values({ user_id: a, name }).execute()
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await adminDb().selectFrom('exports').select('id').where('name', '=', name).execute()).toEqual([])
  })

  test('refuses anything but a user id with role authenticated', async () => {
    await expect(withUser({ sub: 'not-a-uuid' }, async () => 1)).rejects.toThrow(/uuid/)
    await expect(withUser({ sub: a, role: 'service_role' }, async () => 1)).rejects.toThrow(/refusing role/)
  })
})
