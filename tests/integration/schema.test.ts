// Schema, sign-up trigger and credit functions, against the real (embedded) Postgres.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { adminDb, closeDb, withUser } from '#app/.server/db.ts'

let admin: pg.Pool

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 20 })
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

/** Signs a user up the way the auth server does: a row in auth.users (the trigger does the rest). */
async function createAuthUser(meta: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [
    id,
    `${id}@example.test`,
    meta,
  ])
  return id
}

type ChangeOptions = { key?: string | null; exportId?: string; leadId?: string; type?: string }

async function applyChange(
  client: pg.Pool | pg.PoolClient,
  userId: string,
  delta: number,
  reason: string,
  { key = randomUUID(), exportId, leadId, type }: ChangeOptions = {},
): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    'select public.apply_credit_change($1, $2, $3, $4, $5, $6, $7) as ok',
    [userId, delta, reason, key, exportId ?? null, leadId ?? null, type ?? null],
  )
  return rows[0]!.ok
}

async function credits(userId: string) {
  const { rows } = await admin.query<{ remaining_credits: number; total_credits: number }>(
    'select remaining_credits, total_credits from public.user_credits where user_id = $1',
    [userId],
  )
  return rows[0]
}

async function ledgerSum(userId: string): Promise<number> {
  const { rows } = await admin.query<{ sum: number }>(
    'select coalesce(sum(delta), 0)::int as sum from public.credit_ledger where user_id = $1',
    [userId],
  )
  return rows[0]!.sum
}

describe('sign-up trigger', () => {
  test('creates the profile, 100 free-trial credits and their ledger row', async () => {
    const id = await createAuthUser({ first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical', phone: '+33 1 23' })

    const profile = await admin.query('select first_name, last_name, company_name, phone from public.users where id = $1', [id])
    expect(profile.rows).toEqual([{ first_name: 'Ada', last_name: 'Lovelace', company_name: 'Analytical', phone: '+33 1 23' }])

    expect(await credits(id)).toEqual({ remaining_credits: 100, total_credits: 100 })

    const ledger = await admin.query('select delta, balance_after, reason, idempotency_key from public.credit_ledger where user_id = $1', [id])
    expect(ledger.rows).toEqual([{ delta: 100, balance_after: 100, reason: 'free_trial', idempotency_key: `free_trial:${id}` }])
  })

  test('missing or blank metadata gives empty profile fields', async () => {
    const id = await createAuthUser({ first_name: '  ', company: '' })
    const { rows } = await admin.query('select first_name, last_name, company_name, phone from public.users where id = $1', [id])
    expect(rows).toEqual([{ first_name: null, last_name: null, company_name: null, phone: null }])
    expect(await credits(id)).toEqual({ remaining_credits: 100, total_credits: 100 })
  })

  test('deleting the auth user removes everything of theirs', async () => {
    const id = await createAuthUser()
    await adminDb().insertInto('exports').values({ user_id: id, name: 'gone' }).execute()
    await admin.query('delete from auth.users where id = $1', [id])
    for (const [table, column] of [['users', 'id'], ['user_credits', 'user_id'], ['credit_ledger', 'user_id'], ['exports', 'user_id']]) {
      const { rowCount } = await admin.query(`select 1 from public.${table} where ${column} = $1`, [id])
      expect(rowCount, table).toBe(0)
    }
  })
})

describe('check_user_credits', () => {
  test('compares remaining credits with the requirement (privileged caller)', async () => {
    const id = await createAuthUser()
    const check = async (required: number) =>
      (await admin.query('select public.check_user_credits($1, $2) as ok', [id, required])).rows[0].ok
    expect(await check(1)).toBe(true)
    expect(await check(100)).toBe(true)
    expect(await check(101)).toBe(false)
    expect((await admin.query('select public.check_user_credits($1, 1) as ok', [randomUUID()])).rows[0].ok).toBe(false)
  })

  test('as a signed-in user: true for themselves, false for anyone else', async () => {
    const a = await createAuthUser()
    const b = await createAuthUser()
    const rpc = (userId: string, required: number) =>
      withUser({ sub: a }, async (trx) => {
        const { check } = await trx
          .selectNoFrom((eb) => eb.fn<boolean>('public.check_user_credits', [eb.val(userId), eb.val(required)]).as('check'))
          .executeTakeFirstOrThrow()
        return check
      })
    expect(await rpc(a, 1)).toBe(true)
    expect(await rpc(a, 101)).toBe(false)
    // b has 100 credits too, but a may not learn anything about b.
    expect(await rpc(b, 1)).toBe(false)
    expect(await rpc(b, 0)).toBe(false)
  })

  test('service_role may ask about any user', async () => {
    const id = await createAuthUser()
    const client = await admin.connect()
    try {
      await client.query('begin; set local role service_role')
      expect((await client.query('select public.check_user_credits($1, 50) as ok', [id])).rows[0].ok).toBe(true)
    } finally {
      await client.query('rollback')
      client.release()
    }
  })

  test('anon cannot call it', async () => {
    const client = await admin.connect()
    try {
      await client.query('begin; set local role anon')
      await expect(client.query('select public.check_user_credits($1, 1)', [randomUUID()])).rejects.toThrow(/permission denied/)
    } finally {
      await client.query('rollback')
      client.release()
    }
  })
})

describe('apply_credit_change', () => {
  test('is not callable by a signed-in user', async () => {
    const id = await createAuthUser()
    await expect(
      withUser({ sub: id }, (trx) =>
        trx
          .selectNoFrom((eb) =>
            eb.fn<boolean>('public.apply_credit_change', [eb.val(id), eb.val(1000), eb.val('adjustment'), eb.val('x')]).as('ok'),
          )
          .execute(),
      ),
    ).rejects.toThrow(/permission denied/)
    expect(await credits(id)).toEqual({ remaining_credits: 100, total_credits: 100 })
  })

  test('debits down to zero, never below, and a refused debit changes nothing', async () => {
    const id = await createAuthUser()
    expect(await applyChange(admin, id, -99, 'enrichment')).toBe(true)
    expect(await applyChange(admin, id, -2, 'enrichment')).toBe(false)
    expect(await credits(id)).toEqual({ remaining_credits: 1, total_credits: 100 })
    expect(await applyChange(admin, id, -1, 'enrichment')).toBe(true)
    expect(await applyChange(admin, id, -1, 'enrichment')).toBe(false)
    expect(await credits(id)).toEqual({ remaining_credits: 0, total_credits: 100 })
    const { rowCount } = await admin.query('select 1 from public.credit_ledger where user_id = $1', [id])
    expect(rowCount).toBe(3) // free trial + two accepted debits
  })

  test('an idempotency key is applied once', async () => {
    const id = await createAuthUser()
    const exportId = randomUUID()
    const leadId = randomUUID()
    const key = `enrich:${exportId}:${leadId}:email`
    expect(await applyChange(admin, id, -1, 'enrichment', { key, exportId, leadId, type: 'email' })).toBe(true)
    expect(await applyChange(admin, id, -1, 'enrichment', { key, exportId, leadId, type: 'email' })).toBe(false)
    expect((await credits(id))?.remaining_credits).toBe(99)

    const row = await adminDb().selectFrom('credit_ledger').selectAll().where('idempotency_key', '=', key).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ user_id: id, delta: -1, balance_after: 99, export_id: exportId, lead_id: leadId, enrichment_type: 'email' })
    expect(typeof row.id).toBe('number')
  })

  test('the free-trial grant cannot be replayed', async () => {
    const id = await createAuthUser()
    expect(await applyChange(admin, id, 100, 'free_trial', { key: `free_trial:${id}` })).toBe(false)
    expect(await credits(id)).toEqual({ remaining_credits: 100, total_credits: 100 })
  })

  test('a subscription reload resets remaining and total to the allowance', async () => {
    const id = await createAuthUser()
    await applyChange(admin, id, -30, 'enrichment')
    expect(await applyChange(admin, id, 1500, 'subscription_reload', { key: 'stripe:evt_1' + id })).toBe(true)
    expect(await credits(id)).toEqual({ remaining_credits: 1500, total_credits: 1500 })
    const reload = await admin.query("select delta, balance_after from public.credit_ledger where user_id = $1 and reason = 'subscription_reload'", [id])
    expect(reload.rows).toEqual([{ delta: 1430, balance_after: 1500 }]) // new - old balance
    // Same Stripe event delivered again: ignored.
    await applyChange(admin, id, -500, 'enrichment')
    expect(await applyChange(admin, id, 1500, 'subscription_reload', { key: 'stripe:evt_1' + id })).toBe(false)
    expect((await credits(id))?.remaining_credits).toBe(1000)
    // A downgrade reload can lower the balance.
    expect(await applyChange(admin, id, 5, 'subscription_reload')).toBe(true)
    expect(await credits(id)).toEqual({ remaining_credits: 5, total_credits: 5 })
  })

  test('grants raise total, debits do not; rejects nonsense deltas', async () => {
    const id = await createAuthUser()
    expect(await applyChange(admin, id, 50, 'adjustment')).toBe(true)
    expect(await applyChange(admin, id, -10, 'adjustment')).toBe(true)
    expect(await credits(id)).toEqual({ remaining_credits: 140, total_credits: 150 })
    await expect(applyChange(admin, id, 1, 'enrichment')).rejects.toThrow(/debit/)
    await expect(applyChange(admin, id, -1, 'subscription_reload')).rejects.toThrow(/delta >= 0/)
    await expect(applyChange(admin, id, -1, 'bogus')).rejects.toThrow(/check constraint/)
  })

  test('the ledger always sums to the remaining balance', async () => {
    const id = await createAuthUser()
    for (const [delta, reason] of [[-7, 'enrichment'], [20, 'adjustment'], [-200, 'enrichment'], [5000, 'subscription_reload'], [-1, 'enrichment']] as const) {
      await applyChange(admin, id, delta, reason)
      expect(await ledgerSum(id)).toBe((await credits(id))?.remaining_credits)
    }
    expect((await credits(id))?.remaining_credits).toBe(4999)
  })

  test('racing calls with one idempotency key: exactly one applies (same user)', async () => {
    const id = await createAuthUser()
    const key = `enrich:${randomUUID()}:${randomUUID()}:phone`
    const [first, second] = [await admin.connect(), await admin.connect()]
    try {
      // Deterministic interleaving: the second call runs while the first is still uncommitted.
      await first.query('begin')
      expect(await applyChange(first, id, -1, 'enrichment', { key })).toBe(true)
      const pending = applyChange(second, id, -1, 'enrichment', { key })
      await new Promise((resolve) => setTimeout(resolve, 100))
      await first.query('commit')
      expect(await pending).toBe(false)
    } finally {
      first.release()
      second.release()
    }
    expect((await credits(id))?.remaining_credits).toBe(99)

    // And a plain parallel burst of the same key.
    const burstKey = `stripe:${randomUUID()}`
    const results = await Promise.all(Array.from({ length: 8 }, () => applyChange(admin, id, -1, 'adjustment', { key: burstKey })))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect((await credits(id))?.remaining_credits).toBe(98)
    expect(await ledgerSum(id)).toBe(98)
  })

  test('racing calls with one idempotency key: exactly one applies (different users)', async () => {
    const a = await createAuthUser()
    const b = await createAuthUser()
    const key = `stripe:${randomUUID()}`
    const [first, second] = [await admin.connect(), await admin.connect()]
    try {
      await first.query('begin')
      expect(await applyChange(first, a, 10, 'adjustment', { key })).toBe(true)
      // Different balance rows, so no row lock: the unique key is what makes b's call wait.
      const pending = applyChange(second, b, 10, 'adjustment', { key })
      await new Promise((resolve) => setTimeout(resolve, 100))
      await first.query('commit')
      expect(await pending).toBe(false)
    } finally {
      first.release()
      second.release()
    }
    expect((await credits(a))?.remaining_credits).toBe(110)
    expect((await credits(b))?.remaining_credits).toBe(100)
  })

  test('parallel debits never overdraw', async () => {
    const id = await createAuthUser()
    await applyChange(admin, id, -95, 'enrichment')
    const results = await Promise.all(Array.from({ length: 15 }, () => applyChange(admin, id, -1, 'enrichment')))
    expect(results.filter(Boolean)).toHaveLength(5)
    expect((await credits(id))?.remaining_credits).toBe(0)
    expect(await ledgerSum(id)).toBe(0)
  })
})

describe('exports', () => {
  test('one export per (user, idempotency key): a double submit inserts once', async () => {
    const a = await createAuthUser()
    const b = await createAuthUser()
    const submit = (userId: string, key: string | null) =>
      withUser({ sub: userId }, (trx) =>
        trx
          .insertInto('exports')
          .values({ user_id: userId, name: 'Bakeries', idempotency_key: key, status: 'processing', business_types: ['bakery'] })
          .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
          .returning('id')
          .executeTakeFirst(),
      )
    const key = randomUUID()
    const [one, two] = await Promise.all([submit(a, key), submit(a, key)])
    expect([one, two].filter(Boolean)).toHaveLength(1)
    expect(await submit(b, key)).toBeDefined() // keys are per user
    await expect(
      adminDb().insertInto('exports').values({ user_id: a, idempotency_key: key }).execute(),
    ).rejects.toThrow(/exports_user_id_idempotency_key_key/)
    // Exports without a key are never deduplicated.
    expect(await submit(a, null)).toBeDefined()
    expect(await submit(a, null)).toBeDefined()
  })

  test('defaults match SPEC §3 and updated_at moves on update', async () => {
    const id = await createAuthUser()
    const created = await adminDb().insertInto('exports').values({ user_id: id }).returningAll().executeTakeFirstOrThrow()
    expect(created).toMatchObject({
      name: 'Unnamed Export',
      status: 'pending',
      lead_count: 0,
      total_credits_used: 0,
      can_resume: false,
      progress_percentage: 0,
      business_types: [],
    })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const updated = await adminDb()
      .updateTable('exports')
      .set({ progress_percentage: 42.5 })
      .where('id', '=', created.id)
      .returning(['progress_percentage', 'updated_at'])
      .executeTakeFirstOrThrow()
    expect(updated.progress_percentage).toBe(42.5)
    expect(updated.updated_at.getTime()).toBeGreaterThan(created.updated_at.getTime())
  })

  test('leads are unique per (user, source, place id) and export_leads statuses default to not_required', async () => {
    const id = await createAuthUser()
    const db = adminDb()
    const exp = await db.insertInto('exports').values({ user_id: id }).returning('id').executeTakeFirstOrThrow()
    const lead = await db
      .insertInto('leads')
      .values({ user_id: id, source: 'demo', place_id: 'p1', email: ['a@b.fr'], social_media: { facebook: 'https://fb.test/x' } })
      .returningAll()
      .executeTakeFirstOrThrow()
    expect(lead).toMatchObject({ name: 'Unnamed Business', technologies: {}, business_types: [] })
    await expect(db.insertInto('leads').values({ user_id: id, source: 'demo', place_id: 'p1' }).execute()).rejects.toThrow(
      /leads_user_id_source_place_id_key/,
    )
    const link = await db
      .insertInto('export_leads')
      .values({ export_id: exp.id, lead_id: lead.id, user_id: id, position: 0 })
      .returningAll()
      .executeTakeFirstOrThrow()
    expect(link).toMatchObject({ phone_status: 'not_required', admin_fr_info_status: 'not_required' })
    await expect(
      db.updateTable('export_leads').set({ email_status: 'bogus' as never }).where('export_id', '=', exp.id).execute(),
    ).rejects.toThrow(/check constraint/)
  })
})

describe('catalog guards', () => {
  test('row-level security is enabled on every public table', async () => {
    const { rows } = await admin.query<{ relname: string }>(
      "select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relrowsecurity",
    )
    expect(rows).toEqual([])
  })

  test('every security definer function pins its search_path', async () => {
    const { rows } = await admin.query<{ proname: string }>(
      `select proname from pg_proc
        where pronamespace = 'public'::regnamespace and prosecdef
          and not coalesce(proconfig @> array['search_path=""'], false)`,
    )
    expect(rows).toEqual([])
  })
})
