// The registry-first search's count + preview (app/.server/registry/preview.ts) on the offline demo registry: the
// plan's location rule first, then the registry's total and the first 20 establishments; refusals never a 500.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { previewRegistry } from '#app/.server/registry/preview.ts'
import { createRegistrySearchClient } from '#app/.server/registry/search.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { startFixtureServer } from '#tests/support/fixture-server.ts'

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

const clientFor = (url: string) =>
  createRegistrySearchClient({ baseUrl: url, pool, limiter: createRegistryLimiter({ pool, key: registryLimiterKey(url), requestsPerSecond: 1000 }), maxRetryAfterSeconds: 5, retryBaseDelayMs: 10, maxRetries: 1 })

const bakeries = { nafCodes: ['10.71C'] }

describe('registry preview', () => {
  it('gives the total and the first 20 establishments of a department, within a free trial’s rule', async () => {
    const preview = await previewRegistry({ ...bakeries, place: { kind: 'department', code: '29' } }, { plan: 'free_trial', client: clientFor(demo.url) })
    if (!preview.ok) throw new Error(preview.messageKey)
    expect(preview.total).toBeGreaterThan(20)
    expect(preview.capped).toBe(false)
    expect(preview.establishments).toHaveLength(20)
    for (const establishment of preview.establishments) {
      expect(establishment).toMatchObject({ demo: true, active: true, activityCode: '10.71C', activityLabel: 'Boulangerie et boulangerie-pâtisserie' })
      expect(establishment.siret).toMatch(/^\d{14}$/)
      expect(establishment.communeCode?.startsWith('29')).toBe(true)
      expect(establishment.creationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(establishment.legalFormLabel).toBeTruthy()
    }
    // The count is the registry's: the same as the whole set read page by page.
    let all = 0
    for await (const _ of clientFor(demo.url).establishments({ nafCodes: ['10.71C'], place: { kind: 'department', code: '29' }, headcountBands: [], legalForms: [], labels: [], activeOnly: true }, { limit: 5_000 })) all++
    expect(all).toBe(preview.total)
  })

  it('applies the plan’s location rule before asking the registry', async () => {
    const requests: string[] = []
    const registry = await startFixtureServer((request) => {
      requests.push(request.path)
      return { body: { results: [], total_results: 0 } }
    })
    try {
      const client = clientFor(registry.url)
      const region = { ...bakeries, place: { kind: 'region', code: '53' } } as const
      expect(await previewRegistry(region, { plan: 'basic', client })).toMatchObject({
        ok: false,
        status: 403,
        error: 'plan',
        messageKey: 'search.plan.requiresDepartment',
        validation: { missing: 'department' },
      })
      expect(await previewRegistry({ ...bakeries }, { plan: 'premium', client })).toMatchObject({ ok: false, status: 403, validation: { missing: 'region' } })
      expect(requests).toEqual([])
      expect(await previewRegistry(region, { plan: 'professional', client })).toEqual({ ok: true, total: 0, capped: false, establishments: [] })
      expect(await previewRegistry({ ...bakeries, place: { kind: 'postcode', code: '29200' } }, { plan: 'free_trial', client })).toMatchObject({ ok: true })
      expect(requests).toHaveLength(2)
    } finally {
      await registry.stop()
    }
  })

  it('refuses bad filters and unknown places with a 400, and an unreachable registry without a 500', async () => {
    const client = clientFor(demo.url)
    expect(await previewRegistry({ nafCodes: ['bakery'] }, { plan: 'premium', client })).toMatchObject({ ok: false, status: 400, error: 'invalid_filters', messageKey: 'companies.errors.invalidFilters' })
    expect(await previewRegistry({ ...bakeries, place: { kind: 'department', code: '96' } }, { plan: 'premium', client })).toMatchObject({ ok: false, status: 400, error: 'invalid_location', messageKey: 'companies.errors.unknownPlace' })
    expect(await previewRegistry({ ...bakeries, place: { kind: 'postcode', code: '00000' } }, { plan: 'premium', client })).toMatchObject({ ok: false, status: 400, error: 'invalid_location' })

    const busy = await startFixtureServer(() => ({ status: 429, headers: { 'Retry-After': '3600' } }))
    try {
      expect(await previewRegistry({ ...bakeries, place: { kind: 'region', code: '53' } }, { plan: 'premium', client: clientFor(busy.url) })).toMatchObject({
        ok: false,
        status: 429,
        error: 'rate_limited',
        messageKey: 'companies.errors.rateLimited',
      })
    } finally {
      await busy.stop()
    }
    expect(await previewRegistry({ ...bakeries, place: { kind: 'region', code: '53' } }, { plan: 'premium', client: clientFor('http://127.0.0.1:9') })).toMatchObject({
      ok: false,
      status: 502,
      messageKey: 'companies.errors.upstream',
    })
  })
})
