// The exports pages' read models against the real embedded Postgres (as the user, RLS): the list is
// paged (bench/pages.ts: 1 000 exports rendered at once missed the 50 ms budget) and the detail
// cuts its page of leads before joining them.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { EXPORTS_PAGE_SIZE, getExportDetail, LEADS_PAGE_SIZE, listExports } from '#app/.server/exports/views.ts'
import { DEFAULT_EXPORT_SORT } from '#app/domain/export-list.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
let alice: SessionUser
let bob: SessionUser
let bigExport = ''
const EXPORT_COUNT = EXPORTS_PAGE_SIZE * 2 + 7
const LEAD_COUNT = 95

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return personalSession(id, `${id}@example.test`)
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createUser()
  bob = await createUser()
  // Export g is g minutes old: "Export 1" is the newest. Every tenth one failed.
  await admin.query(
    `insert into public.exports (user_id, name, status, created_at)
     select $1, 'Export ' || g, case when g % 10 = 0 then 'failed' else 'completed' end, now() - make_interval(mins => g)
       from generate_series(1, $2::int) g`,
    [alice.id, EXPORT_COUNT],
  )
  await admin.query(`insert into public.exports (user_id, name, status) values ($1, 'Bob running', 'processing')`, [bob.id])
  bigExport = (await admin.query<{ id: string }>(`select id from public.exports where user_id = $1 and name = 'Export 1'`, [alice.id])).rows[0]!.id
  // Inserted in reverse so only `position` gives the order.
  await admin.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name)
       select $1, 'demo', 'views-' || g, 'Lead ' || g from generate_series($3::int, 1, -1) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position, email_status)
     select $2, id, $1, substr(place_id, 7)::int, 'success' from inserted`,
    [alice.id, bigExport, LEAD_COUNT],
  )
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('exports list', () => {
  test('paged, newest first, the last page holds the rest', async () => {
    const first = await listExports(alice)
    expect(first).toMatchObject({ page: 1, pageCount: 3, running: false })
    expect(first.exports).toHaveLength(EXPORTS_PAGE_SIZE)
    expect(first.exports[0]!.name).toBe('Export 1')
    const last = await listExports(alice, undefined, DEFAULT_EXPORT_SORT, 3)
    expect(last.exports.map((item) => item.name)).toEqual(Array.from({ length: 7 }, (_, i) => `Export ${EXPORTS_PAGE_SIZE * 2 + 1 + i}`))
  })

  test('pages past either end clamp; the filter is paged too', async () => {
    expect((await listExports(alice, undefined, DEFAULT_EXPORT_SORT, 99)).page).toBe(3)
    expect((await listExports(alice, undefined, DEFAULT_EXPORT_SORT, -4)).page).toBe(1)
    expect((await listExports(alice, undefined, DEFAULT_EXPORT_SORT, Number.NaN)).page).toBe(1)
    const failed = await listExports(alice, 'failed')
    expect(failed).toMatchObject({ page: 1, pageCount: 1 })
    expect(failed.exports).toHaveLength(Math.floor(EXPORT_COUNT / 10))
  })

  test("running is about the user's own exports, on any page", async () => {
    expect((await listExports(bob)).running).toBe(true)
    expect((await listExports(bob, 'completed')).running).toBe(true)
    expect((await listExports(alice)).running).toBe(false)
  })
})

describe('export detail', () => {
  test('each page holds the right leads in position order, with their statuses', async () => {
    const first = await getExportDetail(alice, bigExport, 1)
    expect(first).toMatchObject({ totalLeads: LEAD_COUNT, page: 1, pageCount: 10 })
    expect(first!.leads.map((lead) => lead.name)).toEqual(Array.from({ length: LEADS_PAGE_SIZE }, (_, i) => `Lead ${i + 1}`))
    expect(first!.leads[0]!.statuses.email).toBe('success')
    const last = await getExportDetail(alice, bigExport, 10)
    expect(last!.leads.map((lead) => lead.name)).toEqual(['Lead 91', 'Lead 92', 'Lead 93', 'Lead 94', 'Lead 95'])
  })

  test('reused marks come by option key, and the summary counts every reused result of the export', async () => {
    await admin.query(
      `update public.export_leads el set reused = '{"email": "2026-11-20T08:00:00+00:00", "social_media": "2026-11-21T08:00:00+00:00"}'
         from public.leads l where l.id = el.lead_id and el.export_id = $1 and l.name in ('Lead 2', 'Lead 94')`,
      [bigExport],
    )
    try {
      const first = await getExportDetail(alice, bigExport, 1)
      expect(first!.reusedCount).toBe(4)
      expect(first!.leads[0]!.reused).toEqual({})
      expect(first!.leads[1]!.reused).toEqual({ email: '2026-11-20T08:00:00+00:00', social: '2026-11-21T08:00:00+00:00' })
    } finally {
      await admin.query(`update public.export_leads set reused = '{}' where export_id = $1`, [bigExport])
    }
  })

  test('a registry match the registry says is closed is flagged, whatever its shape (establishment F, legal unit C)', async () => {
    const setMatch = `update public.leads set admin_fr_info = $2 where name = $1 and id in (select lead_id from public.export_leads where export_id = $3)`
    await admin.query(setMatch, ['Lead 1', { results: [{ siren: '1', etat_administratif: 'F' }] }, bigExport])
    await admin.query(setMatch, ['Lead 2', { siren: '2', etat_administratif: 'C' }, bigExport])
    await admin.query(setMatch, ['Lead 3', { results: [{ siren: '3', etat_administratif: 'A' }] }, bigExport])
    try {
      const first = await getExportDetail(alice, bigExport, 1)
      expect(first!.leads.slice(0, 4).map((view) => view.registryClosed)).toEqual([true, true, false, false])
    } finally {
      await admin.query(`update public.leads set admin_fr_info = null where id in (select lead_id from public.export_leads where export_id = $1)`, [bigExport])
    }
  })

  test('every main number has its line type, read from the number when it was never listed with one', async () => {
    const setPhone = `update public.leads set phone = $2, country_code = 'FR', phone_sources = $3 where name = $1 and id in (select lead_id from public.export_leads where export_id = $4)`
    await admin.query(setPhone, ['Lead 1', '+33 6 12 34 56 78', {}, bigExport]) // a lead stored before phone sources existed
    await admin.query(setPhone, ['Lead 2', '02 98 44 12 34', {}, bigExport]) // the source's national number, not listed
    await admin.query(setPhone, ['Lead 3', '+33 2 98 44 12 34', { '+33 2 98 44 12 34': { type: 'voip', page: null, rank: 0 } }, bigExport])
    try {
      const first = await getExportDetail(alice, bigExport, 1)
      expect(first!.leads.slice(0, 4).map((view) => view.phoneType)).toEqual(['mobile', 'landline', 'voip', null])
    } finally {
      await admin.query(`update public.leads set phone = null, phone_sources = '{}' where id in (select lead_id from public.export_leads where export_id = $1)`, [bigExport])
    }
  })

  test("another user's export is not found", async () => {
    expect(await getExportDetail(bob, bigExport, 1)).toBeNull()
  })
})
