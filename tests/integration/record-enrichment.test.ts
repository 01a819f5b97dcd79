// public.record_lead_enrichment() on its own: it knows no list of enrichment types, only the column convention
// (leads.<task>, export_leads.<task>_status). Real database; every case runs in a transaction that is rolled back.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

let admin: pg.Pool

beforeAll(() => {
  // One case adds columns as a migration would: migrations run as the superuser.
  admin = new pg.Pool({ connectionString: inject('superuserDatabaseUrl'), max: 2 })
})

afterAll(async () => {
  await admin?.end()
})

/** Runs `body` with a user (10 credits), an export and one lead whose listed tasks are pending, then rolls back. */
async function inRolledBackLead(
  tasks: string[],
  body: (client: pg.PoolClient, ids: { userId: string; exportId: string; leadId: string }) => Promise<void>,
) {
  const client = await admin.connect()
  try {
    await client.query('begin')
    const userId = randomUUID()
    await client.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@example.test`])
    await client.query(`select public.apply_credit_change($1, 10 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $2)`, [
      userId,
      `test:${randomUUID()}`,
    ])
    const exportId = (await client.query(`insert into public.exports (user_id, name) values ($1, 'record') returning id`, [userId])).rows[0].id
    const leadId = (await client.query(`insert into public.leads (user_id, source, place_id, name) values ($1, 'demo', $2, 'Lead') returning id`, [userId, randomUUID()])).rows[0].id
    await client.query('insert into public.export_leads (export_id, lead_id, user_id, position) values ($1, $2, $3, 1)', [exportId, leadId, userId])
    for (const task of tasks) {
      await client.query(`update public.export_leads set ${client.escapeIdentifier(`${task}_status`)} = 'pending' where export_id = $1`, [exportId])
    }
    await body(client, { userId, exportId, leadId })
  } finally {
    await client.query('rollback')
    client.release()
  }
}

async function record(client: pg.PoolClient, ids: { userId: string; exportId: string; leadId: string }, outcomes: object, values: object = {}) {
  const { rows } = await client.query('select public.record_lead_enrichment($1, $2, $3, $4, $5) as result', [ids.userId, ids.exportId, ids.leadId, outcomes, values])
  return rows[0].result as { charged: number; charged_types: string[]; recorded: number; out_of_credits: boolean }
}

describe('record_lead_enrichment', () => {
  it('writes the values of charged types whose shape fits their column and keeps the rest', async () => {
    await inRolledBackLead(['phone', 'email', 'social_media', 'technologies'], async (client, ids) => {
      const result = await record(
        client,
        ids,
        { phone: 'success', email: 'success', social_media: 'success', technologies: 'not_found' },
        { phone: '+33 4 00 00 00 00', email: 'not-an-array@example.test', social_media: { facebook: 'https://facebook.com/x' }, technologies: { CMS: 'WordPress' } },
      )
      expect(result).toMatchObject({ charged: 3, recorded: 4, out_of_credits: false })
      expect(result.charged_types).toEqual(['phone', 'email', 'social_media'])
      const lead = (await client.query('select phone, email, social_media, technologies from public.leads where id = $1', [ids.leadId])).rows[0]
      expect(lead).toEqual({ phone: '+33 4 00 00 00 00', email: [], social_media: { facebook: 'https://facebook.com/x' }, technologies: {} })
      const ledger = (await client.query('select count(*)::int as n, sum(delta)::int as total from public.credit_ledger where export_id = $1', [ids.exportId])).rows[0]
      expect(ledger).toEqual({ n: 3, total: -3 })
    })
  })

  it('rejects a type that has no status column, before touching anything', async () => {
    await inRolledBackLead(['phone'], async (client, ids) => {
      await client.query('savepoint s')
      await expect(record(client, ids, { phone: 'success', fax: 'success' })).rejects.toMatchObject({ code: '22023' })
      await client.query('rollback to savepoint s')
      const status = (await client.query('select phone_status from public.export_leads where export_id = $1', [ids.exportId])).rows[0]
      expect(status.phone_status).toBe('pending')
    })
  })

  it('records and charges a type added later by a migration, with no change to the function', async () => {
    await inRolledBackLead([], async (client, ids) => {
      await client.query(`alter table public.leads add column opening_summary text`)
      await client.query(`alter table public.export_leads add column opening_summary_status text not null default 'not_required'`)
      await client.query(`update public.export_leads set opening_summary_status = 'pending' where export_id = $1`, [ids.exportId])
      const result = await record(client, ids, { opening_summary: 'success' }, { opening_summary: 'Open on Sundays' })
      expect(result).toMatchObject({ charged: 1, charged_types: ['opening_summary'] })
      const lead = (await client.query('select opening_summary from public.leads where id = $1', [ids.leadId])).rows[0]
      expect(lead.opening_summary).toBe('Open on Sundays')
    })
  })
})
