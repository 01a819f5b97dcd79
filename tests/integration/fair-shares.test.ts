// Fair shares of the shared upstream budgets between accounts (app/.server/limits/fair.ts): a victim's request waits
// about its round-robin turn, not behind the queue of accounts flooding the budget, and one account cannot spend a
// whole day's quota. Each "process" is a client of its own (its own pool, its own limiter), only the database in common.
import { describe, expect, it } from 'vitest'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { createGlobalLimits } from '#app/.server/limits/global.ts'
import { createConcurrencyLimiter } from '#app/.server/limits/leases.ts'
import { createWindowBudget } from '#app/.server/limits/windows.ts'
import { createRegistryLimiter } from '#app/.server/registry/limiter.ts'
import { createGoogleSource } from '#app/.server/sources/google.ts'
import { createOsmSource } from '#app/.server/sources/osm.ts'
import { countingOverpass } from '#tests/support/counting-upstreams.ts'
import { collectBusinesses as collect, leadSourceError as refusal } from '#tests/support/lead-source.ts'
import { BAKERY, city, limitsHarness } from '#tests/support/limits-harness.ts'

const { processPool, upstreams, serve } = limitsHarness()

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`

describe('registry budget', () => {
  it("serves a victim's search in its turn while three accounts flood the search class", async () => {
    const key = unique('fair-registry')
    // Two processes on one budget of 5 requests/s: two flooding accounts in the first, one more and the victim in the
    // second (the victim shares its process's queue with a flood, as on one app server).
    const first = createRegistryLimiter({ pool: processPool(), key, requestsPerSecond: 5 })
    const second = createRegistryLimiter({ pool: processPool(), key, requestsPerSecond: 5 })
    const stop = new AbortController()
    let floodServed = 0
    const flood = (limiter: typeof first, account: string) =>
      Array.from({ length: 15 }, () =>
        onBehalfOf(account, () => limiter.take('search', stop.signal))
          .then(async (release) => {
            floodServed++
            await release()
          })
          .catch(() => undefined),
      )
    const floods = [...flood(first, 'heavy-1'), ...flood(first, 'heavy-2'), ...flood(second, 'heavy-3')]
    await new Promise((resolve) => setTimeout(resolve, 300))
    const start = performance.now()
    const release = await onBehalfOf('victim', () => second.take('search', AbortSignal.timeout(20_000)))
    const waited = performance.now() - start
    const servedBefore = floodServed
    await release()
    stop.abort()
    await Promise.all(floods)
    // 45 flood requests at 5/s are 9 s of queue; the victim's turn comes within about a window (1 s) of round-robin.
    expect(waited).toBeLessThan(3_000)
    expect(servedBefore).toBeLessThan(30)
  }, 30_000)
})

describe('Overpass', () => {
  it('slots go round-robin between accounts across processes, not to the process that held them', async () => {
    const key = unique('fair-lease')
    const heavyProcess = createConcurrencyLimiter({ pool: processPool() })
    const victimProcess = createConcurrencyLimiter({ pool: processPool() })
    // Ten long queries of one account hold the single slot one after the other (200 ms each, 2 s in all).
    const heavy = Array.from({ length: 10 }, async () => {
      const release = await heavyProcess.acquire(key, 1, AbortSignal.timeout(20_000), 'heavy')
      await new Promise((resolve) => setTimeout(resolve, 200))
      release()
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const start = performance.now()
    const release = await victimProcess.acquire(key, 1, AbortSignal.timeout(20_000), 'victim')
    const waited = performance.now() - start
    release()
    await Promise.all(heavy)
    await Promise.all([heavyProcess.close(), victimProcess.close()])
    // Its turn: once the query in flight ends (≤ 200 ms), plus polling; never behind the nine others (1.8 s).
    expect(waited).toBeLessThan(1_000)
  }, 30_000)

  it("one account cannot spend the day's budget: past its share it is refused while others still search", async () => {
    const overpass = await countingOverpass(0)
    upstreams.push(overpass)
    const endpoint = `${overpass.url}/api/interpreter`
    // 10 queries a day, at most 30 % (3) per account.
    const source = () => createOsmSource({ endpoint, userAgent: 'LeadAtlas/0.1 (+https://leadatlas.test/contact)', limits: createGlobalLimits(processPool()), dailyRequests: 10, accountDailyPercent: 30 })
    const [a, b] = [source(), source()]
    for (const [i, town] of ['Lyon', 'Bron', 'Vienne'].entries()) await onBehalfOf('saved-searches', () => collect(i % 2 ? b : a, city(town), BAKERY))
    const spent = await refusal(onBehalfOf('saved-searches', () => collect(b, city('Marseille'), BAKERY)))
    expect(spent.code).toBe('rate_limited')
    expect(spent.retryAfterSeconds).toBeGreaterThan(0)
    // Another account's preview is still answered, from either process.
    expect(await onBehalfOf('victim', () => collect(a, city('Toulouse'), BAKERY))).toBeDefined()
    expect(overpass.requests).toHaveLength(4)
  })
})

describe('Google Places day', () => {
  it("one account cannot spend the day's calls of the key: past its share it is refused while others still search", async () => {
    const server = await serve(() => ({ body: { places: [{ id: 'p1', displayName: { text: 'Boulangerie' } }] } }))
    const apiKey = unique('key')
    // 10 calls a day, at most 20 % (2) per account, in two processes.
    const google = () => createGoogleSource({ apiKey, baseUrl: server.url, limits: createGlobalLimits(processPool()), dailyRequests: 10, accountDailyPercent: 20 })
    const [a, b] = [google(), google()]
    await onBehalfOf('saved-searches', () => collect(a, city('Lyon'), BAKERY))
    await onBehalfOf('saved-searches', () => collect(b, city('Bron'), BAKERY))
    const spent = await refusal(onBehalfOf('saved-searches', () => collect(a, city('Vienne'), BAKERY)))
    expect(spent.code).toBe('rate_limited')
    expect(await onBehalfOf('victim', () => collect(b, city('Toulouse'), BAKERY))).toHaveLength(1)
    expect(server.requests).toHaveLength(3)
  })
})

describe('Google Places minute', () => {
  it('room in the window goes round-robin between accounts: a victim is served in its turn, not by luck', async () => {
    const key = unique('fair-window')
    const windows = [{ key, limit: 1, windowMs: 300 }]
    // One process: its pool's queue is where the takers race at each window's start.
    const budget = createWindowBudget(processPool())
    const stop = new AbortController()
    // Taken as google.ts does: sleep the wait, ask again.
    const take = async (account: string) => {
      while (!stop.signal.aborted) {
        const wait = await budget.take(windows, { key, account })
        if (wait === 0) return
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
    }
    const floods = [0, 1, 2].flatMap((a) =>
      Array.from({ length: 10 }, async () => {
        while (!stop.signal.aborted) await take(`heavy-${a}`)
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 600))
    // Three calls one after the other: by luck, each would wait about 30 windows (31 takers for 1 place every
    // 300 ms, 9 s); in its turn, at most one window per account waiting (4 windows, 1.2 s).
    const start = performance.now()
    for (let i = 0; i < 3; i++) await take('victim')
    const waited = performance.now() - start
    stop.abort()
    await Promise.all(floods)
    expect(waited).toBeLessThan(4_500)
  }, 30_000)
})
