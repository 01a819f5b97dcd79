// The map-coverage panel's figures (app/.server/registry/coverage.ts) on the offline demo registry and the demo map
// source: the demo map shows about 70 % of the demo registry's establishments, and the estimate must say so.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { registryCoverage } from '#app/.server/registry/coverage.ts'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { previewRegistry } from '#app/.server/registry/preview.ts'
import { createRegistrySearchClient } from '#app/.server/registry/search.ts'
import type { RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'

let demo: DemoRegistry
let pool: pg.Pool
beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  // The demo map gives websites only with a websites server to point at (never called here).
  process.env.DEMO_WEBSITES_URL = 'http://127.0.0.1:9'
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  await pool.query('delete from public.registry_search_cache')
  demo = await startDemoRegistry({ port: 0 })
})
afterAll(async () => {
  await demo?.stop()
  await pool?.end()
})

/** Counts the registry's requests, so the test can hold coverage to its budget of 4 pages. */
function countingClient() {
  const requests: string[] = []
  const client = createRegistrySearchClient({
    baseUrl: demo.url,
    pool,
    limiter: createRegistryLimiter({ pool, key: registryLimiterKey(demo.url), requestsPerSecond: 1000 }),
    fetch: (input, init) => {
      requests.push(String(input))
      return fetch(input, init)
    },
  })
  return { client, requests }
}

describe('registry coverage', () => {
  it('estimates that the demo map shows about 70 % of a department’s bakeries, from 100 checked, within 4 registry pages', async () => {
    const { client, requests } = countingClient()
    const filters: RegistryFiltersInput = { nafCodes: ['10.71C'], place: { kind: 'department', code: '69' } }
    const preview = await previewRegistry(filters, { plan: 'premium', client })
    if (!preview.ok) throw new Error(preview.messageKey)
    expect(preview.total).toBeGreaterThan(100)
    const coverage = await registryCoverage(filters, { total: preview.total, lang: 'fr', client })
    if (!coverage) throw new Error('no coverage')
    expect(coverage.source).toBe('demo')
    expect(coverage.onMap).toMatchObject({ sample: 100, population: preview.total, exact: false })
    expect(coverage.onMap.share).toBeGreaterThan(0.55)
    expect(coverage.onMap.share).toBeLessThan(0.85)
    expect(coverage.onMap.low).toBeLessThan(0.7)
    expect(coverage.onMap.high).toBeGreaterThan(0.7)
    expect(coverage.withWebsite.hits).toBeLessThanOrEqual(coverage.onMap.hits)
    expect(coverage.withWebsite.hits).toBeGreaterThan(0)
    // The preview's page is the sample's first one (cached): 4 pages of 25 at most.
    expect(new Set(requests).size).toBeLessThanOrEqual(4)
  })

  it('counts exactly when the sample is the whole set (a postcode)', async () => {
    const { client } = countingClient()
    const filters: RegistryFiltersInput = { nafCodes: ['10.71C'], place: { kind: 'postcode', code: '29160' } }
    const preview = await previewRegistry(filters, { plan: 'premium', client })
    if (!preview.ok) throw new Error(preview.messageKey)
    expect(preview.total).toBeGreaterThan(0)
    expect(preview.total).toBeLessThanOrEqual(100)
    const coverage = await registryCoverage(filters, { total: preview.total, lang: 'en', client })
    expect(coverage?.onMap).toMatchObject({ sample: preview.total, population: preview.total, exact: true })
    expect(coverage?.onMap.hits).toBeGreaterThan(0)
    expect(coverage?.onMap.hits).toBeLessThan(preview.total)
  })
})
