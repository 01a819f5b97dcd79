// The registry budget (app/.server/registry/limiter.ts): one limit for every process of a deployment, measured where
// it matters (at the registry), shared fairly between the enrichment and the registry-first search, and paused for
// everyone by a 429's Retry-After.
import pg from 'pg'
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest'
import { createRegistrySearch } from '#app/.server/enrichment/registry-http.ts'
import { createRegistryLimiter, registryLimiterKey, type RegistryClass } from '#app/.server/registry/limiter.ts'
import { type FixtureHandler, type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'

const pools: pg.Pool[] = []
/** A process of its own: its own pool, its own limiter instance, only the database in common. */
function processClient(baseUrl: string, registryClass: RegistryClass = 'enrichment', requestsPerSecond = 7) {
  const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  pools.push(pool)
  const limiter = createRegistryLimiter({ pool, key: registryLimiterKey(baseUrl), requestsPerSecond })
  return createRegistrySearch({ baseUrl, limiter, registryClass, retryBaseDelayMs: 20 })
}
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
})

let server: FixtureServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

/** A registry that notes when each request reaches it (and from which class, sent as q). */
async function timedRegistry(answer: FixtureHandler = () => ({ body: { results: [], total_results: 0 } })) {
  const arrivals: Array<{ at: number; q: string }> = []
  server = await startFixtureServer((request, index) => {
    arrivals.push({ at: performance.now(), q: new URL(request.path, 'http://x').searchParams.get('q') ?? '' })
    return answer(request, index)
  })
  return { url: server.url, arrivals }
}

/** The most requests the registry saw in any one-second window. */
function peakPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b)
  let peak = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= 1000) j++
    peak = Math.max(peak, i - j + 1)
  }
  return peak
}

describe('registry limiter', () => {
  it('holds 7 requests/s at the registry for two processes hammering it together', async () => {
    const registry = await timedRegistry()
    const first = processClient(registry.url)
    const second = processClient(registry.url)
    const n = 14
    const start = performance.now()
    const results = await Promise.all([
      ...Array.from({ length: n }, (_, i) => first({ q: `first ${i}` })),
      ...Array.from({ length: n }, (_, i) => second({ q: `second ${i}` })),
    ])
    const elapsed = performance.now() - start
    expect(results.every((result) => result.kind === 'ok')).toBe(true)
    expect(registry.arrivals).toHaveLength(2 * n)
    expect(peakPerSecond(registry.arrivals.map((a) => a.at))).toBeLessThanOrEqual(7)
    // Not slower than needed either: 28 requests at 7 per (1 s + margin) is about 3.3 s.
    expect(elapsed).toBeGreaterThanOrEqual(3_000)
    expect(elapsed).toBeLessThan(6_000)
    // Both processes were served all along, not one after the other.
    const firstHalf = registry.arrivals.slice(0, n).map((a) => a.q.split(' ')[0])
    expect(new Set(firstHalf)).toEqual(new Set(['first', 'second']))
  })

  it('shares the budget fairly: the search never starves the enrichment, and neither idles the budget', async () => {
    const registry = await timedRegistry()
    const enrichment = processClient(registry.url, 'enrichment')
    const search = processClient(registry.url, 'search')
    // The enrichment has a long backlog queued first; the search arrives while it runs.
    const backlog = Promise.all(Array.from({ length: 28 }, (_, i) => enrichment({ q: `enrichment ${i}` })))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const searchStart = performance.now()
    await Promise.all(Array.from({ length: 8 }, (_, i) => search({ q: `search ${i}` })))
    const searchElapsed = performance.now() - searchStart
    await backlog
    expect(peakPerSecond(registry.arrivals.map((a) => a.at))).toBeLessThanOrEqual(7)
    // 8 search requests at their half share (4 per window) take about 2 windows, not the 4+ s of waiting for the
    // enrichment's backlog to drain.
    expect(searchElapsed).toBeLessThan(3_000)
    // While both wanted the registry, each got its share of every window.
    const searching = registry.arrivals.filter((a) => a.q.startsWith('search'))
    const during = registry.arrivals.filter((a) => a.at >= (searching[0]?.at ?? 0) && a.at <= (searching.at(-1)?.at ?? 0))
    expect(during.filter((a) => a.q.startsWith('enrichment')).length).toBeGreaterThanOrEqual(4)
  })

  it('pauses every process after a 429 with Retry-After', async () => {
    let refused = false
    const registry = await timedRegistry((request) => {
      if (!refused && new URL(request.path, 'http://x').searchParams.get('q') === 'first 0') {
        refused = true
        return { status: 429, headers: { 'Retry-After': '2' }, body: { erreur: 'Trop de requêtes' } }
      }
      return { body: { results: [], total_results: 0 } }
    })
    const first = processClient(registry.url)
    const second = processClient(registry.url)
    const firstDone = first({ q: 'first 0' })
    while (!refused) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const refusedAt = registry.arrivals[0]?.at as number
    // The other process had nothing to do with the 429, yet waits too.
    const [a, b] = await Promise.all([firstDone, second({ q: 'second 0' })])
    expect([a.kind, b.kind]).toEqual(['ok', 'ok'])
    const after = registry.arrivals.slice(1)
    expect(after.map((a) => a.q).sort()).toEqual(['first 0', 'second 0'])
    for (const arrival of after) expect(arrival.at - refusedAt).toBeGreaterThanOrEqual(1_950)
  })
})
