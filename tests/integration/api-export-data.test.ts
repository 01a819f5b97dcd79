// An export's data through the public API (GET /exports/{id}/leads and /exports/{id}/file), called with the client
// generated from the OpenAPI document (every answer checked against it): paging gives every lead exactly once, a
// tampered cursor is a 400, another user's export a 404, and the file is byte for byte the download buttons' file.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest'
import { adminDb, closeDb, type EnrichmentOptionsJson } from '#app/.server/db.ts'
import { downloadHeaders, openExportDownload } from '#app/.server/exports/download.ts'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { createApiClient, createApiUser, type ApiClient } from '#tests/support/api-client.ts'

const LEADS = 1234
const ALL_OPTIONS: EnrichmentOptionsJson = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

let admin: pg.Pool
let alice: Awaited<ReturnType<typeof createApiUser>>
let bob: Awaited<ReturnType<typeof createApiUser>>
let aliceExport = ''
let bobExport = ''

async function createExport(userId: string): Promise<string> {
  const row = await adminDb().insertInto('exports').values({ user_id: userId, name: 'Boulangeries Brest', status: 'completed', enrichment_options: ALL_OPTIONS }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** `count` leads with an email each (every other one verified valid), a phone, a site and a registry match. */
async function seedLeads(userId: string, exportId: string, count: number) {
  await admin.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name, city, country_code, phone, website, email, email_sources, admin_fr_info)
       select $1, 'osm', 'node/' || g, 'Boulangerie ' || g, 'Brest', 'FR', '+33 2 98 00 ' || lpad((g % 100)::text, 2, '0') || ' 00',
              'https://boulangerie-' || g || '.example', array['contact@boulangerie-' || g || '.example'],
              jsonb_build_object('contact@boulangerie-' || g || '.example', jsonb_build_object('page', 'https://boulangerie-' || g || '.example/contact',
                'found_at', '2026-11-21T09:30:00Z', 'check', jsonb_build_object('status', case when g % 2 = 0 then 'valid' else 'risky' end, 'role', true, 'webmail', false))),
              jsonb_build_object('results', jsonb_build_array(jsonb_build_object('siren', '552100554', 'etat_administratif', 'A')))
         from generate_series(1, $3::int) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position, phone_status, website_status, email_status, admin_fr_info_status)
     select $2, id, $1, substr(place_id, 6)::int, 'success', 'success', 'success', 'success' from inserted`,
    [userId, exportId, count],
  )
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createApiUser(admin)
  bob = await createApiUser(admin)
  aliceExport = await createExport(alice.user.id)
  await seedLeads(alice.user.id, aliceExport, LEADS)
  bobExport = await createExport(bob.user.id)
  await seedLeads(bob.user.id, bobExport, 3)
})

afterAll(async () => {
  await admin.end()
  await closeDb()
})

async function leadsPage(api: ApiClient, id: string, query: { limit?: number; cursor?: string; verified_emails_only?: 'true' | 'false'; lang?: 'en' | 'fr' } = {}) {
  return api.GET('/api/v1/exports/{id}/leads', { params: { path: { id }, query } })
}

describe('GET /exports/{id}/leads', () => {
  test('both operations are in the OpenAPI document, the leads with the Lead schema', () => {
    const document = openApiDocument('http://api.test') as unknown as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } }
    expect(Object.keys(document.paths['/api/v1/exports/{id}/leads'] ?? {})).toContain('get')
    expect(Object.keys(document.paths['/api/v1/exports/{id}/file'] ?? {})).toContain('get')
    expect(document.components.schemas).toHaveProperty('Lead')
  })

  test('paging through gives every lead exactly once, in file order', async () => {
    const seen: string[] = []
    const positions: number[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const { data, response } = await leadsPage(alice.api, aliceExport, { limit: 500, cursor })
      expect(response.status).toBe(200)
      expect(response.headers.get('RateLimit-Remaining')).toMatch(/^\d+$/)
      seen.push(...data!.data.map((lead) => lead.id))
      positions.push(...data!.data.map((lead) => lead.position))
      cursor = data!.next_cursor ?? undefined
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toHaveLength(LEADS)
    expect(new Set(seen).size).toBe(LEADS)
    expect(positions).toEqual(Array.from({ length: LEADS }, (_, i) => i + 1))
  })

  test('a lead carries its provenance and statuses; 50 by default', async () => {
    const { data } = await leadsPage(alice.api, aliceExport)
    expect(data!.data).toHaveLength(50)
    expect(data!.data[0]).toMatchObject({
      name: 'Boulangerie 1',
      source: 'osm',
      source_url: 'https://www.openstreetmap.org/node/1',
      enrichments: {
        email: { status: 'success', email: [{ address: 'contact@boulangerie-1.example', quality: { status: 'risky' }, source: { page: 'https://boulangerie-1.example/contact', found_at: '2026-11-21T09:30:00.000Z' } }] },
        admin_fr_info: { status: 'success', siren: '552100554', administrative_state: 'Active' },
        technologies: { status: 'not_required' },
      },
    })
    // Values never follow Accept-Language (issue 28 item 11): the same request gives the same JSON; ?lang= asks.
    const acceptFrench = await leadsPage(createApiClient(alice.key, { 'Accept-Language': 'fr' }), aliceExport, { limit: 1 })
    expect(acceptFrench.data!.data[0]!.enrichments.admin_fr_info?.administrative_state).toBe('Active')
    const french = await leadsPage(alice.api, aliceExport, { limit: 1, lang: 'fr' })
    expect(french.data!.data[0]!.enrichments.admin_fr_info?.administrative_state).toBe('Actif')
  })

  test('verified_emails_only=true keeps the leads with a valid address', async () => {
    const { data } = await leadsPage(alice.api, aliceExport, { limit: 1000, verified_emails_only: 'true' })
    expect(data!.data).toHaveLength(Math.min(1000, Math.floor(LEADS / 2)))
    expect(data!.data.every((lead) => lead.enrichments.email?.email.every((email) => email.quality?.status === 'valid'))).toBe(true)
  })

  test("another user's export, an unknown and a malformed id are 404 not_found", async () => {
    for (const id of [bobExport, '7b0e5d55-4a8e-4a43-9a55-6a2a35f0a001', 'nope']) {
      const { error, response } = await leadsPage(alice.api, id)
      expect(response.status, id).toBe(404)
      expect(error).toMatchObject({ code: 'not_found', status: 404 })
    }
    expect((await leadsPage(bob.api, bobExport)).data!.data).toHaveLength(3)
  })

  test('a tampered cursor is a 400, a limit out of range or a bad flag a 422, never a 500', async () => {
    const first = await leadsPage(alice.api, aliceExport, { limit: 2 })
    const good = first.data!.next_cursor!
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const cursor of [good.slice(0, 10), 'not base64!', b64({ position: 1 }), b64([-1, alice.user.id]), b64([1, "x' or 1=1 --"]), b64([2 ** 40, alice.user.id]), 'A'.repeat(400)]) {
      const { error, response } = await leadsPage(alice.api, aliceExport, { cursor })
      expect(response.status, cursor).toBe(400)
      expect(error).toMatchObject({ code: 'invalid_cursor', errors: [{ path: 'query.cursor' }] })
    }
    for (const query of [{ limit: 0 }, { limit: 1001 }, { verified_emails_only: 'yes' as 'true' }]) {
      const { response } = await leadsPage(alice.api, aliceExport, query)
      expect(response.status, JSON.stringify(query)).toBe(422)
    }
  })
})

describe('GET /exports/{id}/file', () => {
  async function apiFile(api: ApiClient, id: string, query: { format?: 'csv' | 'csv_semicolon' | 'xlsx'; preset?: 'all' | 'contacts' | 'crm'; lang?: 'en' | 'fr' }) {
    return api.GET('/api/v1/exports/{id}/file', { params: { path: { id }, query }, parseAs: 'arrayBuffer' })
  }

  /** What the export page's download button gives (the route app/routes/api.exports.id.download.ts opens it so). */
  async function buttonFile(args: { format: 'csv' | 'xlsx'; separator?: 'comma' | 'semicolon'; preset: 'all' | 'contacts' | 'crm'; lang: 'en' | 'fr' }) {
    const file = await openExportDownload({ claims: alice.user.claims, exportId: aliceExport, ...args })
    return { headers: downloadHeaders(file!), bytes: Buffer.from(await new Response(file!.body).arrayBuffer()) }
  }

  test('the same bytes and headers as the download buttons, in every format and preset', async () => {
    // exceljs stamps the workbook and its zip entries with the time: one frozen clock for both files.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') })
    try {
      const cases = [
        { query: { format: 'csv', preset: 'all' }, button: { format: 'csv', separator: 'comma', preset: 'all' } },
        { query: { format: 'csv_semicolon', preset: 'contacts' }, button: { format: 'csv', separator: 'semicolon', preset: 'contacts' } },
        { query: { format: 'xlsx', preset: 'crm' }, button: { format: 'xlsx', preset: 'crm' } },
        { query: {}, button: { format: 'csv', separator: 'comma', preset: 'all' } },
      ] as const
      for (const { query, button } of cases) {
        const { data, response } = await apiFile(alice.api, aliceExport, query)
        expect(response.status).toBe(200)
        const expected = await buttonFile({ ...button, lang: 'en' })
        expect(Buffer.from(data as ArrayBuffer).equals(expected.bytes), JSON.stringify(query)).toBe(true)
        expect(response.headers.get('Content-Type')).toBe(expected.headers['Content-Type'])
        expect(response.headers.get('Content-Disposition')).toBe(expected.headers['Content-Disposition'])
        expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="boulangeries_brest_2026-11-27.' + (button.format === 'xlsx' ? 'xlsx' : 'csv') + '"')
      }
      // The language is `?lang`, never the Accept-Language header (which only words a problem's detail).
      const french = await apiFile(alice.api, aliceExport, { format: 'csv_semicolon', lang: 'fr' })
      const expected = await buttonFile({ format: 'csv', separator: 'semicolon', preset: 'all', lang: 'fr' })
      expect(Buffer.from(french.data as ArrayBuffer).equals(expected.bytes)).toBe(true)
      expect(expected.bytes.toString('utf8')).toContain('Nom;Adresse;Ville')
      const header = await apiFile(createApiClient(alice.key, { 'Accept-Language': 'fr' }), aliceExport, { format: 'csv_semicolon' })
      expect(Buffer.from(header.data as ArrayBuffer).toString('utf8')).toContain('Name;Address;City')
    } finally {
      vi.useRealTimers()
    }
  })

  test("another user's export is 404; an unknown format or preset is 422", async () => {
    expect((await apiFile(alice.api, bobExport, { format: 'csv' })).response.status).toBe(404)
    expect((await apiFile(alice.api, aliceExport, { format: 'pdf' as 'csv' })).response.status).toBe(422)
    expect((await apiFile(alice.api, aliceExport, { preset: 'everything' as 'all' })).response.status).toBe(422)
  })
})
