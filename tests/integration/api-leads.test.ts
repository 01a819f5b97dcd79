// The API's page of an export's leads (app/.server/exports/api-leads.ts) against the real embedded Postgres: read as
// the user through RLS, every field of the file with its provenance and statuses, keyset pages that give every lead
// exactly once. The opaque cursor around a page's position is the API's (tests/integration/api-export-data.test.ts).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { ApiLeadSchema, type ApiLead } from '#app/domain/api-lead.ts'
import { adminDb, closeDb, jsonb, type EnrichmentOptionsJson } from '#app/.server/db.ts'
import { addDncEntries } from '#app/.server/do-not-contact/store.ts'
import { loadApiLeadsPage, type LeadPosition } from '#app/.server/exports/api-leads.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const ALL_OPTIONS: EnrichmentOptionsJson = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const BULK = 2345

let admin: pg.Pool
let alice: string
let bob: string
const ids = { full: '', emailOnly: '', bulk: '', bobs: '' }

async function createAuthUser(): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`])
  return id
}

async function createExport(userId: string, enrichmentOptions: EnrichmentOptionsJson): Promise<string> {
  const row = await adminDb().insertInto('exports').values({ user_id: userId, name: 'API leads', status: 'completed', enrichment_options: enrichmentOptions }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

const FOUND_AT = '2026-11-21T09:30:00.000Z'

/** A fully enriched French lead at position 0 and a bare one at position 1, linked to each export given. */
async function seedRichLeads(userId: string, exportIds: string[]) {
  const db = adminDb()
  const rich = await db
    .insertInto('leads')
    .values({
      user_id: userId,
      source: 'osm',
      place_id: 'node/4242',
      name: 'Boulangerie Paul',
      full_address: '12 rue de la Paix, 75002 Paris',
      city: 'Paris',
      postal_code: '75002',
      country_code: 'FR',
      phone: '+33 1 23 45 67 89',
      website: 'https://boulangerie-paul.fr',
      latitude: 48.8686,
      longitude: 2.3314,
      rating: 4.5,
      review_count: 128,
      business_types: ['bakery', 'cafe'],
      working_hours: jsonb('Mo-Sa 07:00-19:30'),
      operational_state: 'OPERATIONAL',
      email: ['contact@boulangerie-paul.fr', 'paul@boulangerie-paul.fr'],
      email_sources: {
        'contact@boulangerie-paul.fr': { page: 'https://boulangerie-paul.fr/contact', found_at: FOUND_AT, check: { status: 'valid', role: true, webmail: false } },
        'paul@boulangerie-paul.fr': { page: null, found_at: FOUND_AT, check: { status: 'risky', reason: 'catch_all', role: false, webmail: false } },
      },
      phone_sources: {
        '+33 1 23 45 67 89': { type: 'landline', page: null, rank: 0 },
        '+33 6 71 23 45 89': { type: 'mobile', page: 'https://boulangerie-paul.fr/contact', rank: 1 },
      },
      technologies: { CMS: 'WordPress', 'JavaScript libraries': ['jQuery', 'React'] },
      social_media: { facebook: 'https://facebook.com/paul', x: 'https://x.com/paul' },
      admin_fr_info: {
        confidence: 0.92,
        matched_by: 'siret',
        id_source_page: 'https://boulangerie-paul.fr/mentions-legales',
        results: [{ siren: '552100554', nom_raison_sociale: 'BOULANGERIE PAUL', activite_principale: '10.71C', etat_administratif: 'A', siege: { siret: '55210055400013' } }],
      },
    })
    .returning(['id', 'updated_at'])
    .executeTakeFirstOrThrow()
  const bare = await db.insertInto('leads').values({ user_id: userId, source: 'demo', place_id: `bare-${userId}`, name: 'Bare lead' }).returning('id').executeTakeFirstOrThrow()
  for (const exportId of exportIds) {
    await db
      .insertInto('export_leads')
      .values([
        {
          export_id: exportId,
          lead_id: rich.id,
          user_id: userId,
          position: 0,
          phone_status: 'success',
          website_status: 'success',
          email_status: 'success',
          technologies_status: 'success',
          social_media_status: 'success',
          admin_fr_info_status: 'success',
          reused: { phone: '2026-11-20T08:00:00+00:00' },
        },
        { export_id: exportId, lead_id: bare.id, user_id: userId, position: 1, phone_status: 'not_found', email_status: 'failed', admin_fr_info_status: 'pending' },
      ])
      .execute()
  }
  return { richId: rich.id, updatedAt: new Date(rich.updated_at).toISOString() }
}

/** `count` leads; every tenth shares its position with the lead before it (the id breaks the tie), every third has a valid email. */
async function seedBulk(userId: string, exportId: string, count: number) {
  await admin.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name, email, email_sources)
       select $1, 'demo', 'bulk-' || g, 'Lead ' || g,
              array['a' || g || '@example.fr'],
              jsonb_build_object('a' || g || '@example.fr', jsonb_build_object('page', null, 'found_at', '${FOUND_AT}',
                'check', jsonb_build_object('status', case when g % 3 = 0 then 'valid' else 'risky' end, 'role', false, 'webmail', false)))
         from generate_series(1, $3::int) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position, email_status)
     select $2, id, $1, substr(place_id, 6)::int - case when substr(place_id, 6)::int % 10 = 0 then 1 else 0 end, 'success' from inserted`,
    [userId, exportId, count],
  )
}

const claims = (userId: string) => ({ sub: userId, role: 'authenticated' })

let rich: Awaited<ReturnType<typeof seedRichLeads>>

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createAuthUser()
  bob = await createAuthUser()
  ids.full = await createExport(alice, ALL_OPTIONS)
  ids.emailOnly = await createExport(alice, { email: true })
  rich = await seedRichLeads(alice, [ids.full, ids.emailOnly])
  ids.bulk = await createExport(alice, { email: true })
  await seedBulk(alice, ids.bulk, BULK)
  ids.bobs = await createExport(bob, ALL_OPTIONS)
  await seedRichLeads(bob, [ids.bobs])
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('a lead as the API shows it', () => {
  test('every field of the file, each enriched value with where and when it was found, each status', async () => {
    const page = await loadApiLeadsPage(claims(alice), ids.full)
    expect(page?.next).toBeNull()
    const [lead, bare] = page!.data
    expect(() => ApiLeadSchema.parse(lead)).not.toThrow()
    expect(() => ApiLeadSchema.parse(bare)).not.toThrow()
    const at = rich.updatedAt
    expect(lead).toMatchObject({
      id: rich.richId,
      position: 0,
      name: 'Boulangerie Paul',
      phone: '+33 1 23 45 67 89',
      website: 'https://boulangerie-paul.fr',
      rating: 4.5,
      review_count: 128,
      business_types: ['bakery', 'cafe'],
      working_hours: 'Mon–Sat 07:00–19:30',
      operational_state: 'OPERATIONAL',
      source: 'osm',
      source_id: 'node/4242',
      source_url: 'https://www.openstreetmap.org/node/4242',
    })
    const { phone, website, email, technologies, social, admin_fr_info } = lead!.enrichments
    expect(phone).toEqual({
      status: 'success',
      reused_at: '2026-11-20T08:00:00.000Z',
      phone_type: 'landline',
      // The source listed the main number: its provenance is the OSM object.
      phone_source: { page: 'https://www.openstreetmap.org/node/4242', found_at: at },
      other_phones: [{ number: '+33 6 71 23 45 89', e164: '+33671234589', type: 'mobile', source: { page: 'https://boulangerie-paul.fr/contact', found_at: at } }],
    })
    expect(website).toEqual({ status: 'success', reused_at: null, website_source: { page: 'https://boulangerie-paul.fr', found_at: at } })
    expect(email).toEqual({
      status: 'success',
      reused_at: null,
      email: [
        { address: 'contact@boulangerie-paul.fr', quality: { status: 'valid', reason: null, role: true, webmail: false, checked_at: FOUND_AT }, source: { page: 'https://boulangerie-paul.fr/contact', found_at: FOUND_AT } },
        { address: 'paul@boulangerie-paul.fr', quality: { status: 'risky', reason: 'catch_all', role: false, webmail: false, checked_at: FOUND_AT }, source: { page: 'https://www.openstreetmap.org/node/4242', found_at: FOUND_AT } },
      ],
    })
    expect(technologies).toEqual({ status: 'success', reused_at: null, technologies: { CMS: ['WordPress'], 'JavaScript libraries': ['jQuery', 'React'] }, source: { page: 'https://boulangerie-paul.fr', found_at: at } })
    expect(social).toMatchObject({ status: 'success', facebook: 'https://facebook.com/paul', twitter: 'https://x.com/paul', linkedin: null })
    expect(admin_fr_info).toMatchObject({
      status: 'success',
      siren: '552100554',
      siret: '55210055400013',
      legal_name: 'BOULANGERIE PAUL',
      // Labelled like the file (registry codes read at download time), each label beside its code.
      naf_code: '10.71C',
      administrative_state: 'Active',
      administrative_state_code: 'A',
      matched_by: 'SIRET printed on the site',
      matched_by_code: 'siret',
      match_confidence: 0.92,
      source: { page: 'https://boulangerie-paul.fr/mentions-legales', found_at: at },
    })
    expect(bare!.enrichments).toMatchObject({ phone: { status: 'not_found', phone_source: null, other_phones: [] }, email: { status: 'failed', email: [] }, admin_fr_info: { status: 'pending', source: null } })
    expect(bare!.source_url).toBeNull()
  })

  test('French registry labels and opening hours when asked in French', async () => {
    const page = await loadApiLeadsPage(claims(alice), ids.full, { lang: 'fr' })
    // The labels follow `lang`; the codes do not.
    expect(page!.data[0]).toMatchObject({ working_hours: 'lun.–sam. 07:00–19:30', enrichments: { admin_fr_info: { administrative_state: 'Actif', administrative_state_code: 'A', matched_by_code: 'siret' } } })
  })

  test('an enrichment the export did not ask for has no block, as the file has no columns for it', async () => {
    const page = await loadApiLeadsPage(claims(alice), ids.emailOnly)
    const lead = page!.data[0]!
    expect(lead.enrichments).toMatchObject({ phone: null, website: null, technologies: null, social: null, admin_fr_info: null })
    expect(lead.enrichments.email?.email).toHaveLength(2)
  })

  test('an address put on the do-not-contact list is gone from the answer, as from the file', async () => {
    const dncUser = await createAuthUser()
    const exportId = await createExport(dncUser, ALL_OPTIONS)
    await seedRichLeads(dncUser, [exportId])
    await addDncEntries(personalSession(dncUser, `${dncUser}@example.test`), [{ kind: 'email', value: 'paul@boulangerie-paul.fr' }])
    const page = await loadApiLeadsPage(claims(dncUser), exportId)
    expect(page!.data[0]!.enrichments.email?.email.map((email) => email.address)).toEqual(['contact@boulangerie-paul.fr'])
  })
})

describe('who may read', () => {
  test("another user's export, an unknown id and a malformed id are all not found", async () => {
    expect(await loadApiLeadsPage(claims(alice), ids.bobs)).toBeNull()
    expect(await loadApiLeadsPage(claims(bob), ids.full)).toBeNull()
    expect(await loadApiLeadsPage(claims(alice), randomUUID())).toBeNull()
    expect(await loadApiLeadsPage(claims(alice), 'not-a-uuid')).toBeNull()
    expect((await loadApiLeadsPage(claims(bob), ids.bobs))?.data).toHaveLength(2)
  })
})

async function pageThrough(exportId: string, limit: number, verifiedEmailsOnly = false): Promise<{ leads: ApiLead[]; pages: number }> {
  const leads: ApiLead[] = []
  let after: LeadPosition | null = null
  let pages = 0
  do {
    const page: Awaited<ReturnType<typeof loadApiLeadsPage>> = await loadApiLeadsPage(claims(alice), exportId, { limit, after, verifiedEmailsOnly })
    leads.push(...page!.data)
    after = page!.next
    pages++
  } while (after)
  return { leads, pages }
}

describe('keyset pages', () => {
  test('every lead exactly once, in file order, ties on position broken by id', async () => {
    const { leads, pages } = await pageThrough(ids.bulk, 1000)
    expect(pages).toBe(3)
    expect(leads).toHaveLength(BULK)
    expect(new Set(leads.map((lead) => lead.id)).size).toBe(BULK)
    const order = leads.map((lead) => [lead.position, lead.id] as const)
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1))
    expect(order).toEqual(sorted)
    // Small pages cut through the shared positions too.
    const small = await pageThrough(ids.bulk, 7)
    expect(small.leads.map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id))
  })

  test('the default page is 50 leads; the limit is 1..1000', async () => {
    const page = await loadApiLeadsPage(claims(alice), ids.bulk)
    expect(page!.data).toHaveLength(50)
    expect(page!.next).toEqual([page!.data[49]!.position, page!.data[49]!.id])
    await expect(loadApiLeadsPage(claims(alice), ids.bulk, { limit: 0 })).rejects.toThrow(RangeError)
    await expect(loadApiLeadsPage(claims(alice), ids.bulk, { limit: 1001 })).rejects.toThrow(RangeError)
    expect((await loadApiLeadsPage(claims(alice), ids.bulk, { limit: 1000 }))!.data).toHaveLength(1000)
  })

  test('verified_emails_only keeps the leads with an address verified valid, and only those addresses', async () => {
    const { leads } = await pageThrough(ids.bulk, 300, true)
    expect(leads).toHaveLength(Math.floor(BULK / 3))
    for (const lead of leads) expect(lead.enrichments.email?.email.map((email) => email.quality?.status)).toEqual(['valid'])
    const full = await loadApiLeadsPage(claims(alice), ids.full, { verifiedEmailsOnly: true })
    expect(full!.data.map((lead) => lead.enrichments.email?.email.map((email) => email.address))).toEqual([['contact@boulangerie-paul.fr']])
  })

  test('a position that is not one is refused before any query', async () => {
    for (const after of [[-1, randomUUID()], [1.5, randomUUID()], [1, "x' or 1=1 --"]] as unknown as LeadPosition[]) {
      await expect(loadApiLeadsPage(claims(alice), ids.bulk, { after })).rejects.toThrow(RangeError)
    }
  })
})
