// Security issue 18: a free-trial user sent `country=Atlantis&countryCode=FR`; the plan check read the unknown name
// (no region required) while the lead source read the code and searched all of France. Every command now resolves
// the location once (resolve-criteria.ts) and refuses a bad one with 400 before any plan check, source call, export
// or credit. The preview runs against Google Places played from a recorded page on loopback, its requests counted;
// the export worker against a source that counts its searches.
import fs from 'node:fs'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { addEnrichment, createExport, resumeExport } from '#app/.server/exports/service.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { clearPreviewCache, runPreview } from '#app/.server/search/preview.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { EMPTY_CRITERIA, type SearchCriteria } from '#app/domain/search.ts'
import { type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'
import { countingSource } from '#tests/support/lead-source.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const PAGE = JSON.parse(fs.readFileSync(new URL('../fixtures/google/plumbers-lyon-page1.json', import.meta.url), 'utf8')) as object
const VARIABLES = ['LEADS_SOURCE', 'GOOGLE_PLACES_API_KEY', 'GOOGLE_PLACES_URL', 'PREVIEW_CACHE_SECONDS'] as const
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]))

const criteria = (fields: Partial<SearchCriteria>): SearchCriteria => ({ ...EMPTY_CRITERIA, sector: 'craft-plumber', ...fields })

/** What a hostile client sends, and the field and message each is refused with. */
const REFUSED: Array<{ name: string; sent: SearchCriteria; field: string; messageKey: string }> = [
  { name: 'an unknown name with a code', sent: criteria({ country: 'Atlantis', countryCode: 'FR' }), field: 'country', messageKey: 'search.errors.location.unknownCountry' },
  { name: 'a name and a code that disagree', sent: criteria({ country: 'Germany', countryCode: 'FR' }), field: 'countryCode', messageKey: 'search.errors.location.countryCodeMismatch' },
  { name: 'a code alone', sent: criteria({ countryCode: 'DE' }), field: 'countryCode', messageKey: 'search.errors.location.countryCodeAlone' },
  { name: 'a region without a country', sent: criteria({ region: 'Bretagne', department: 'Finistère' }), field: 'country', messageKey: 'search.errors.location.noCountry' },
  { name: 'an unknown region', sent: criteria({ country: 'France', countryCode: 'FR', region: 'Atlantide', department: 'Finistère' }), field: 'region', messageKey: 'search.errors.location.unknownRegion' },
  { name: 'a department outside its region', sent: criteria({ country: 'France', region: 'Bretagne', department: 'Rhône' }), field: 'department', messageKey: 'search.errors.location.unknownDepartment' },
  { name: 'an unknown city', sent: criteria({ country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Ys' }), field: 'city', messageKey: 'search.errors.location.unknownCity' },
]
const FINISTERE = criteria({ country: 'France', countryCode: 'FR', region: 'Bretagne', department: 'Finistère' })

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

/** A free-trial user (the sign-up grant of credits, no subscription). */
async function freeTrialUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return personalSession(id, `${id}@example.test`)
}
const fresh = (user: SessionUser): SessionUser => ({ ...user })

async function footprint(userId: string) {
  const { rows } = await admin.query<{ exports: number; ledger: number; credits: number }>(
    `select (select count(*)::int from public.exports where user_id = $1) as exports,
            (select count(*)::int from public.credit_ledger where user_id = $1) as ledger,
            (select remaining_credits from public.user_credits where user_id = $1) as credits`,
    [userId],
  )
  return rows[0]!
}

describe('preview (the search page GET form and POST /api/search/preview)', () => {
  let google: FixtureServer
  beforeEach(async () => {
    clearPreviewCache()
    google = await startFixtureServer(() => ({ body: PAGE }))
    Object.assign(process.env, { LEADS_SOURCE: 'google', GOOGLE_PLACES_API_KEY: 'test-key', GOOGLE_PLACES_URL: google.url })
  })
  afterEach(async () => {
    await google.stop()
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    clearPreviewCache()
  })

  test.each(REFUSED)('refuses $name with 400 naming the field, before the plan check and without asking the source', async ({ sent, field, messageKey }) => {
    const outcome = await runPreview(sent, { lang: 'fr', plan: 'free_trial' })
    expect(outcome).toEqual({ ok: false, status: 400, error: 'invalid_location', field, messageKey })
    expect(google.requests).toHaveLength(0)
  })

  test('a department search fits the free trial and reaches the source with the resolved country code', async () => {
    const outcome = await runPreview(FINISTERE, { lang: 'fr', plan: 'free_trial' })
    expect(outcome).toMatchObject({ ok: true, france: true })
    expect(google.requests).toHaveLength(1)
    expect(google.requests[0]?.json).toMatchObject({ regionCode: 'FR' })
  })
})

describe('export commands', () => {
  const EMAIL = { ...NO_ENRICHMENT, email: true }

  test.each(REFUSED)('create refuses $name with 400 and creates no export, spends no credit', async ({ sent, messageKey }) => {
    const user = await freeTrialUser()
    const before = await footprint(user.id)
    const result = await createExport({ user: fresh(user), name: 'Hostile', criteria: sent, enrichmentOptions: EMAIL, idempotencyKey: randomUUID(), lang: 'fr' })
    expect(result).toEqual({ ok: false, status: 400, code: 'invalid_location', messageKey })
    expect(await footprint(user.id)).toEqual({ ...before, exports: 0 })
  })

  /** An export stored before locations were checked, as the user's own. */
  async function seedExport(userId: string, searchParams: object, status: 'interrupted' | 'completed' | 'processing') {
    const { rows } = await admin.query<{ id: string }>(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, can_resume, search_params, enrichment_options, country)
       values ($1, 'Old', $2, $3, $4, $5, $6, $7, 'Atlantis') returning id`,
      [userId, status, status === 'processing' ? 'pending' : 'completed', status === 'processing' ? 'pending' : status, status === 'interrupted', searchParams, { email: true }],
    )
    return rows[0]!.id
  }
  const HOSTILE = { sector: 'craft-plumber', country: 'Atlantis', countryCode: 'FR', lang: 'fr' }
  const MISMATCHED = { sector: 'craft-plumber', country: 'Germany', countryCode: 'FR', lang: 'fr' }

  test('resume and add enrichment re-resolve the stored search and refuse a bad one cleanly (400, nothing changed)', async () => {
    const user = await freeTrialUser()
    const before = await footprint(user.id)
    for (const params of [HOSTILE, MISMATCHED]) {
      const interrupted = await seedExport(user.id, params, 'interrupted')
      expect(await resumeExport({ user: fresh(user), exportId: interrupted })).toMatchObject({ ok: false, status: 400, code: 'invalid_location' })
      const completed = await seedExport(user.id, params, 'completed')
      expect(await addEnrichment({ user: fresh(user), exportId: completed, options: ['phone'] })).toMatchObject({ ok: false, status: 400, code: 'invalid_location' })
      const { rows } = await admin.query('select status, can_resume, enrichment_options from public.exports where id = any($1) order by status', [[interrupted, completed]])
      expect(rows).toEqual([
        { status: 'completed', can_resume: false, enrichment_options: { email: true } },
        { status: 'interrupted', can_resume: true, enrichment_options: { email: true } },
      ])
    }
    expect(await resumeExport({ user: fresh(user), exportId: await seedExport(user.id, HOSTILE, 'interrupted') })).toMatchObject({
      messageKey: 'search.errors.location.unknownCountry',
    })
    const { ledger, credits } = await footprint(user.id)
    expect({ ledger, credits }).toEqual({ ledger: before.ledger, credits: before.credits })
  })

  test('the worker fails a stored bad search for good without asking the source', async () => {
    const user = await freeTrialUser()
    const exportId = await seedExport(user.id, HOSTILE, 'processing')
    const source = countingSource()
    const result = await processExport(exportId, { enrichers: createDefaultEnrichers(parseEnv(process.env)), source, maxLeads: 10 })
    expect(result).toEqual({ outcome: 'failed', leads: 0, enrichedLeads: 0, charged: 0 })
    expect(source.calls).toHaveLength(0)
    const { rows } = await admin.query('select status, search_status, can_resume from public.exports where id = $1', [exportId])
    expect(rows[0]).toEqual({ status: 'failed', search_status: 'failed', can_resume: false })
  })
})
