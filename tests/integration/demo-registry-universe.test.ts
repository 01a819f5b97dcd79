// The offline demo registry answers the registry-first search's filters from a universe coherent with the demo map:
// for a category and a place, the map's businesses are about 70 % of the registry's establishments, under the SIRENs
// the enrichment's registry match gives them; deterministic, labelled demo data.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createRegistryClient } from '#app/.server/enrichment/index.ts'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { createRegistrySearchClient, type LabelledEstablishment } from '#app/.server/registry/search.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { demoSite } from '#app/.server/sources/demo/site.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { distanceMetres, SAME_PLACE_METRES } from '#app/domain/geo-distance.ts'
import { registryFiltersSchema, type RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'

let demo: DemoRegistry
let pool: pg.Pool
beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  await pool.query('delete from public.registry_search_cache')
  demo = await startDemoRegistry({ port: 0 })
})
afterAll(async () => {
  await demo?.stop()
  await pool?.end()
})

const limiter = () => createRegistryLimiter({ pool, key: registryLimiterKey(demo.url), requestsPerSecond: 1000 })

async function registryEstablishments(input: RegistryFiltersInput): Promise<LabelledEstablishment[]> {
  const search = createRegistrySearchClient({ baseUrl: demo.url, pool, limiter: limiter(), cacheSeconds: 0 })
  const out: LabelledEstablishment[] = []
  for await (const establishment of search.establishments(registryFiltersSchema.parse(input), { limit: 5_000 })) out.push(establishment)
  return out
}

/** What the search page's map shows for the category in the place. */
async function mapBusinesses(sector: string, location: { region: string; department: string; city?: string }): Promise<Business[]> {
  const resolution = resolveCriteria({ sector, country: 'France', countryCode: 'FR', city: '', ...location })
  if (!resolution.ok) throw new Error(resolution.messageKey)
  const out: Business[] = []
  const source = createDemoSource({ websitesBaseUrl: 'http://127.0.0.1:9' })
  for await (const business of source.search(searchParamsOf(resolution.criteria, 'fr'), resolveCategory(sector, 'fr'), {})) out.push(business)
  return out
}

/** The SIRET a crawler reads in the business's legal notice, if its site prints one. */
function printedSiret(business: Business): string | null {
  const slug = business.website ? /\/sites\/([^/]+)\//.exec(business.website)?.[1] : undefined
  return slug ? demoSite(slug).siret : null
}

describe('demo registry universe', () => {
  it('holds the map’s bakeries of Brest (about 70 % of it) under the SIRENs the registry match gives them', async () => {
    const bakery = resolveCategory('bakery', 'fr')
    const map = await mapBusinesses('bakery', { region: 'Bretagne', department: 'Finistère', city: 'Brest' })
    const registry = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'commune', code: '29019' }, activeOnly: false })
    const share = map.length / registry.length
    expect(share).toBeGreaterThan(0.62)
    expect(share).toBeLessThan(0.78)
    expect(registry.every((e) => e.demo && e.communeCode === '29019' && e.activityCode === bakery?.naf?.[0])).toBe(true)
    // Geocoded where the map shows them, a few metres off: each positioned establishment has a map business of its
    // name within 150 m (the matchers' "same place"); those the map does not know carry no position.
    const positioned = registry.filter((e) => e.latitude !== null)
    expect(positioned.length).toBe(map.length)
    for (const e of positioned) {
      const near = map.filter((b) => (distanceMetres(e, b) ?? Infinity) <= SAME_PLACE_METRES)
      expect(near.length, e.name ?? e.siren).toBeGreaterThan(0)
    }
    const sirens = new Set(registry.map((e) => e.siren))

    // The enrichment's match, as an export runs it: the SIRET printed on the site first, else name and postcode.
    const match = createRegistryClient({ baseUrl: demo.url, limiter: limiter() })
    let matched = 0
    for (const business of map.slice(0, 30)) {
      const result = await match.lookup({ name: business.name, postalCode: business.postalCode, city: business.city, siret: printedSiret(business), nafCodes: bakery?.naf })
      if (result.status !== 'success') continue
      matched++
      expect(sirens.has(result.info.results[0]!.siren), business.name).toBe(true)
    }
    expect(matched).toBeGreaterThanOrEqual(20)
  })

  it('is the same universe from every place: a department’s establishments in a town are that town’s', async () => {
    const hairdresser = resolveCategory('hairdresser', 'fr')
    const department = await registryEstablishments({ nafCodes: hairdresser?.naf, place: { kind: 'department', code: '29' }, activeOnly: false })
    const map = await mapBusinesses('hairdresser', { region: 'Bretagne', department: 'Finistère' })
    expect(map.length / department.length).toBeGreaterThan(0.62)
    expect(map.length / department.length).toBeLessThan(0.78)
    const inBrest = department.filter((e) => e.communeCode === '29019')
    expect(inBrest.length).toBeGreaterThan(0)
    const brest = new Set((await registryEstablishments({ nafCodes: hairdresser?.naf, place: { kind: 'commune', code: '29019' }, activeOnly: false })).map((e) => e.siret))
    for (const establishment of inBrest) expect(brest.has(establishment.siret)).toBe(true)
    // A postcode is the part of its commune's universe at that postcode.
    const byPostcode = await registryEstablishments({ nafCodes: hairdresser?.naf, place: { kind: 'postcode', code: '29200' }, activeOnly: false })
    expect(byPostcode.length).toBeGreaterThan(0)
    for (const establishment of byPostcode) expect(brest.has(establishment.siret) && establishment.postalCode === '29200').toBe(true)
  })

  it('applies the filters, answers the same every time, and labels everything as demo data', async () => {
    const bakery = resolveCategory('bakery', 'fr')
    const everything = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'department', code: '29' }, activeOnly: false })
    const active = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'department', code: '29' } })
    expect(active.length).toBeLessThan(everything.length)
    expect(active.every((e) => e.active)).toBe(true)
    const small = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'department', code: '29' }, headcountBands: ['01', '02'], legalForms: ['sarl'] })
    expect(small.length).toBeGreaterThan(0)
    expect(small.every((e) => ['01', '02'].includes(e.headcountBand ?? '') && e.legalFormFamily === 'sarl')).toBe(true)
    const labelled = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'department', code: '29' }, labels: ['bio'] })
    expect(labelled.length).toBeGreaterThan(0)
    expect(labelled.length).toBeLessThan(active.length / 4)

    const again = await registryEstablishments({ nafCodes: bakery?.naf, place: { kind: 'department', code: '29' }, activeOnly: false })
    expect(again).toEqual(everything)
    const raw = (await (await fetch(`${demo.url}/search?activite_principale=10.71C&departement=29&per_page=2`)).json()) as { demo: boolean; results: Array<{ demo: boolean }>; total_results: number }
    expect(raw.demo).toBe(true)
    expect(raw.results.every((r) => r.demo)).toBe(true)
    expect(raw.total_results).toBe(everything.length)
    // Without q nor any filter, the registry's own answer: 400.
    expect((await fetch(`${demo.url}/search?per_page=2`)).status).toBe(400)
  })
})
