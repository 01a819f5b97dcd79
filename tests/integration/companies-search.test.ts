// One /companies search as the route's loader runs it (app/.server/registry/companies-search.ts): the form's values
// read from the URL, turned into registry filters (a category's NAF codes, a NAF label, place names), the plan's
// rule, the count and 20 establishments, and the coverage panel; every refusal a localized 4xx naming its field.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { searchCompanies } from '#app/.server/registry/companies-search.ts'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { upsertAnnouncements } from '#app/.server/registry-events/store.ts'
import { createRegistrySearchClient } from '#app/.server/registry/search.ts'
import { readCompaniesQuery } from '#app/domain/companies-form.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'

let demo: DemoRegistry
let pool: pg.Pool
beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  demo = await startDemoRegistry({ port: 0 })
})
afterAll(async () => {
  await closeDb()
  await demo?.stop()
  await pool?.end()
})

const client = () => createRegistrySearchClient({ baseUrl: demo.url, pool, limiter: createRegistryLimiter({ pool, key: registryLimiterKey(demo.url), requestsPerSecond: 1000 }) })

function query(search: string) {
  const read = readCompaniesQuery(new URLSearchParams(search))
  if (!read.ok) throw new Error(`refused: ${search}`)
  return read.query
}

describe('searchCompanies', () => {
  it('expands a category to its NAF codes and finds a department’s bakeries of one headcount band, with their coverage', async () => {
    const outcome = await searchCompanies(query('run=1&active=1&sector=Boulangerie&department=Rh%C3%B4ne&headcount=02'), { plan: 'free_trial', lang: 'fr', client: client() })
    if (!outcome.ok) throw new Error(outcome.messageKey)
    expect(outcome.nafCodes).toEqual(['10.71C'])
    expect(outcome.total).toBeGreaterThan(20)
    expect(outcome.establishments).toHaveLength(20)
    for (const establishment of outcome.establishments) expect(establishment).toMatchObject({ activityCode: '10.71C', headcountBand: '02', demo: true })
    expect(outcome.coverage).toMatchObject({ onMap: { sample: Math.min(100, outcome.total) }, source: 'demo' })
  })

  it('reads a NAF code picked by label and a postcode', async () => {
    const outcome = await searchCompanies(query('run=1&active=1&nafAdd=10.71C%20%E2%80%94%20Boulangerie%20et%20boulangerie-p%C3%A2tisserie&city=29160'), { plan: 'free_trial', lang: 'en', client: client() })
    if (!outcome.ok) throw new Error(outcome.messageKey)
    expect(outcome.nafCodes).toEqual(['10.71C'])
    for (const establishment of outcome.establishments) expect(establishment.postalCode).toBe('29160')
  })

  it('refuses, naming the field, an unknown category, activity or place, and applies the plan before the registry', async () => {
    const lang = 'en'
    expect(await searchCompanies(query('run=1&sector=not-a-category&department=29'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: false, status: 400, field: 'sector', messageKey: 'companies.errors.unknownCategory' })
    expect(await searchCompanies(query('run=1&nafAdd=99.99Z&department=29'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: false, status: 400, field: 'nafAdd', messageKey: 'companies.errors.unknownActivity' })
    // Words of several labels are not guessed; words of one label are that activity.
    expect(await searchCompanies(query('run=1&nafAdd=boulangerie&department=29'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: false, status: 400, field: 'nafAdd' })
    expect(await searchCompanies(query('run=1&nafAdd=boulangerie-p%C3%A2tisserie&department=29'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: true, nafCodes: ['10.71C'] })
    // A department outside the region chosen, and a commune outside the department.
    expect(await searchCompanies(query('run=1&naf=10.71C&region=Bretagne&department=69'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: false, status: 400, field: 'department' })
    expect(await searchCompanies(query('run=1&naf=10.71C&department=29&city=Lyon'), { plan: 'premium', lang, client: client() })).toMatchObject({ ok: false, status: 400, field: 'city' })
    expect(await searchCompanies(query('run=1&naf=10.71C&region=Bretagne'), { plan: 'basic', lang, client: client() })).toMatchObject({ ok: false, status: 403, plan: true, messageKey: 'search.plan.requiresDepartment' })
  })
})

describe('searchCompanies and the BODACC store', () => {
  it('shows beside an establishment its company in liquidation, with the announcement', async () => {
    const first = await searchCompanies(query('run=1&active=1&naf=10.71C&city=29160'), { plan: 'free_trial', lang: 'fr', client: client() })
    if (!first.ok || first.establishments.length === 0) throw new Error('the demo registry should list bakeries there')
    const siren = first.establishments[0]!.siren
    const id = `A2026${String(Date.now()).slice(-8)}`
    await upsertAnnouncements(adminDb(), [
      { id, sirens: [siren], publishedOn: '2026-10-02', family: 'collective', kind: 'annonce', correctsId: null, judgment: { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture d'une procédure de redressement judiciaire", complement: '', date: '2026-09-28' }, radiation: null, createdOn: null, naturalPerson: false, tribunal: 'TRIBUNAL DE COMMERCE DE BREST', url: `https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:${id}` },
    ])
    const again = await searchCompanies(query('run=1&active=1&naf=10.71C&city=29160'), { plan: 'free_trial', lang: 'fr', client: client() })
    if (!again.ok) throw new Error('refused')
    const shown = again.establishments.filter((establishment) => establishment.risk)
    expect(shown.map((establishment) => [establishment.siren, establishment.risk?.status, establishment.risk?.date])).toEqual(
      again.establishments.filter((establishment) => establishment.siren === siren).map(() => [siren, 'redressement', '2026-09-28']),
    )
  })
})

describe('searchCompanies without an activity', () => {
  it('counts every activity of the place but does not read the whole map for the coverage', async () => {
    const outcome = await searchCompanies(query('run=1&active=1&city=29160'), { plan: 'free_trial', lang: 'en', client: client() })
    if (!outcome.ok) throw new Error(outcome.messageKey)
    expect(outcome.total).toBeGreaterThan(0)
    expect(outcome.coverage).toBe('needs_activity')
  })
})
