// The registry-first search client (app/.server/registry/search.ts) against recorded /search answers
// (tests/fixtures/registry/search-filtered-*.json) served on loopback: the filters it sends, paging, the 10 000 cap
// and its split, 429, the day-long cache shared by processes, and the temporary NAF 2025 field present or absent.
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { createRegistrySearchClient, RegistrySearchError } from '#app/.server/registry/search.ts'
import { registryFiltersSchema } from '#app/domain/registry-search.ts'
import { type FixtureHandler, type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'

const FIXTURES = path.resolve('tests/fixtures/registry')
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as { results: Array<Record<string, unknown>>; total_results: number }

const pools: pg.Pool[] = []
const newPool = () => {
  const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  pools.push(pool)
  return pool
}
let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = newPool()
})
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
})
// Ports are reused between tests: a cached answer of an earlier test must not answer a later one.
beforeEach(async () => {
  await admin.query('delete from public.registry_search_cache')
})

let server: FixtureServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const params = (request: { path: string }) => Object.fromEntries(new URL(request.path, 'http://x').searchParams)

/** Answers like the live registry from the recordings. */
const recorded: FixtureHandler = (request) => {
  const p = params(request)
  if (p.activite_principale === '10.71C' && p.departement === '29') {
    const page = Number(p.page ?? 1)
    return { body: page <= 3 ? fixture(`search-filtered-bakeries-29-page-${page}.json`) : { results: [], total_results: 53, page, per_page: 25, total_pages: 3 } }
  }
  if (p.region === '94') return { body: fixture('search-filtered-capped-region-94.json') }
  if (p.departement === '2A') return { body: fixture('search-filtered-department-2a.json') }
  if (p.departement === '2B') return { body: fixture('search-filtered-department-2b.json') }
  return { body: fixture('search-empty.json') }
}

async function registry(handler: FixtureHandler = recorded) {
  server = await startFixtureServer(handler)
  return server
}

/** A process's client: its own pool; a fast budget so the tests do not wait on politeness. */
function client(url: string, extra: Parameters<typeof createRegistrySearchClient>[0] = {}) {
  const pool = newPool()
  return createRegistrySearchClient({
    baseUrl: url,
    pool,
    limiter: createRegistryLimiter({ pool, key: registryLimiterKey(url), requestsPerSecond: 50 }),
    userAgent: 'LeadAtlas/0.1 (+mailto:ops@example.test)',
    retryBaseDelayMs: 10,
    ...extra,
  })
}

const bakeries29 = registryFiltersSchema.parse({ nafCodes: ['10.71C'], place: { kind: 'department', code: '29' } })

describe('registry search client', () => {
  it('sends the filters as the registry names them, with the contact in the User-Agent', async () => {
    const api = await registry()
    const filters = registryFiltersSchema.parse({
      nafCodes: ['43.22A', '43.21A'],
      place: { kind: 'commune', code: '29019' },
      headcountBands: ['11', '03'],
      legalForms: ['sarl'],
      labels: ['rge', 'qualiopi'],
    })
    const page = await client(api.url).page(filters, 2)
    expect(page).toEqual({ total: 0, capped: false, establishments: [] })
    expect(api.requests).toHaveLength(1)
    const sent = api.requests[0]!
    expect(sent.path.startsWith('/search?')).toBe(true)
    expect(params(sent)).toEqual({
      activite_principale: '43.21A,43.22A',
      code_commune: '29019',
      est_qualiopi: 'true',
      est_rge: 'true',
      etat_administratif: 'A',
      nature_juridique: expect.stringMatching(/^54\d\d(,54\d\d)*$/),
      page: '2',
      per_page: '25',
      tranche_effectif_salarie: '03,11',
    })
    expect(params(sent).nature_juridique!.split(',')).toEqual(expect.arrayContaining(['5410', '5485', '5498', '5499']))
    expect(sent.headers['user-agent']).toBe('LeadAtlas/0.1 (+mailto:ops@example.test)')
  })

  it('maps a page to establishments with labels, the total, and no personal data of a withheld sole trader', async () => {
    const api = await registry()
    const page = await client(api.url).page(bakeries29, 1)
    expect(page.total).toBe(53)
    expect(page.capped).toBe(false)
    expect(page.establishments).toHaveLength(25)
    const recordedFirst = fixture('search-filtered-bakeries-29-page-1.json').results[0]!
    expect(page.establishments[0]).toMatchObject({
      siren: recordedFirst.siren,
      siret: (recordedFirst.siege as { siret: string }).siret,
      activityCode: '10.71C',
      activityLabel: 'Boulangerie et boulangerie-pâtisserie',
      // The NAF 2025 field, while the registry sends it.
      activityCodeNaf25: '10.71A',
      active: true,
    })
    for (const establishment of page.establishments) {
      expect(establishment.postalCode).toMatch(/^29\d{3}$/)
      expect(establishment.legalFormLabel).toBeTruthy()
    }
    const withheld = page.establishments.filter((e) => e.personalDataWithheld)
    expect(withheld).toHaveLength(1)
    expect(withheld[0]).toMatchObject({ name: null, address: null, directors: [], legalFormCode: '1000' })
    expect(JSON.stringify(withheld)).not.toContain('NON-DIFFUSIBLE')
    // Sole traders never list directors: the entry is the person.
    for (const e of page.establishments.filter((e) => e.legalFormCode === '1000')) expect(e.directors).toEqual([])
  })

  it('pages through a set, 25 at a time, and stops at what was asked', async () => {
    const api = await registry()
    const all = []
    for await (const establishment of client(api.url).establishments(bakeries29, { limit: 1000 })) all.push(establishment)
    expect(all).toHaveLength(53)
    expect(new Set(all.map((e) => e.siret)).size).toBe(53)
    expect(api.requests.map((r) => params(r).page)).toEqual(['1', '2', '3'])
    const few = []
    for await (const establishment of client(api.url, { cacheSeconds: 0 }).establishments(bakeries29, { limit: 30 })) few.push(establishment)
    expect(few).toHaveLength(30)
    expect(api.requests.map((r) => params(r).page)).toEqual(['1', '2', '3', '1', '2'])
  })

  it('shows a capped total as 10 000+, and splits a capped set by department to go beyond it', async () => {
    const api = await registry()
    const region = registryFiltersSchema.parse({ nafCodes: ['47.11B'], place: { kind: 'region', code: '94' } })
    const search = client(api.url)
    expect(await search.page(region, 1)).toMatchObject({ total: 10_000, capped: true })
    const all = []
    for await (const establishment of search.establishments(region, { limit: 20_000 })) all.push(establishment)
    // Corsica's two departments, each under the cap: every establishment of both, none of the capped page.
    expect(api.requests.map((r) => params(r).region ?? params(r).departement)).toEqual(['94', '2A', '2B'])
    expect(all).toHaveLength(7)
    expect(all.map((e) => e.postalCode?.slice(0, 2))).toEqual(['20', '20', '20', '20', '20', '20', '20'])
    // These recordings are from after 2027-01-01: no NAF 2025 field, and nothing missing because of it.
    expect(all.every((e) => e.activityCodeNaf25 === null && e.activityCode === '47.11B')).toBe(true)
  })

  it('answers an identical query from the shared cache for a day, in any process', async () => {
    const api = await registry()
    const first = await client(api.url).page(bakeries29, 1)
    // Another process (its own pool), same query in another order: no new request.
    const same = registryFiltersSchema.parse({ place: { kind: 'department', code: '29' }, nafCodes: ['10.71C', '10.71C'] })
    expect(await client(api.url).page(same, 1)).toEqual(first)
    expect(api.requests).toHaveLength(1)
    // A day later the answer is asked again.
    await admin.query(`update public.registry_search_cache set fetched_at = now() - interval '25 hours'`)
    await client(api.url).page(bakeries29, 1)
    expect(api.requests).toHaveLength(2)
    // Another page is another query.
    await client(api.url).page(bakeries29, 2)
    expect(api.requests).toHaveLength(3)
  })

  it('waits a 429’s Retry-After and retries; gives up with the delay when it is too long', async () => {
    const api = await registry((request, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': '1' }, body: { erreur: 'Trop de requêtes' } } : recorded(request, index)))
    const start = performance.now()
    expect((await client(api.url).page(bakeries29, 1)).total).toBe(53)
    expect(performance.now() - start).toBeGreaterThanOrEqual(950)
    expect(api.requests).toHaveLength(2)
    await server?.stop()
    const refusing = await registry(() => ({ status: 429, headers: { 'Retry-After': '3600' } }))
    const error = await client(refusing.url, { maxRetryAfterSeconds: 30 })
      .page(bakeries29, 1)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistrySearchError)
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 3600 })
    // Failures are not cached.
    expect((await admin.query('select count(*)::int as n from public.registry_search_cache')).rows[0]).toEqual({ n: 1 })
  })
})
