// Limits that protect others hold across processes (app/.server/limits/): each "process" here is a client of its own
// (its own pool, its own limiter), only the database in common, and every bound is measured at the upstream.
import { describe, expect, it } from 'vitest'
import { createWebsiteCrawler } from '#app/.server/enrichment/crawler.ts'
import { createGlobalLimits } from '#app/.server/limits/global.ts'
import { createConcurrencyLimiter } from '#app/.server/limits/leases.ts'
import { createWindowBudget } from '#app/.server/limits/windows.ts'
import { createGoogleSource } from '#app/.server/sources/google.ts'
import { clearOverpassCache, createOsmSource } from '#app/.server/sources/osm.ts'
import { countingOverpass, countingWebsite } from '#tests/support/counting-upstreams.ts'
import { collectBusinesses as collect, leadSourceError as refusal } from '#tests/support/lead-source.ts'
import { BAKERY, city, limitsHarness } from '#tests/support/limits-harness.ts'

const { processPool, upstreams, serve } = limitsHarness()

async function leasesOf(key: string): Promise<number> {
  const { rows } = await processPool().query<{ n: number }>('select count(*)::int as n from public.limit_leases where key = $1 and expires_at > clock_timestamp()', [key])
  return rows[0]?.n ?? 0
}

describe('per-site crawl concurrency', () => {
  it('never has more than 2 requests in flight at the website for two processes crawling it together', async () => {
    const site = await countingWebsite(60)
    upstreams.push(site)
    const host = new URL(site.url).host
    const crawlers = [0, 1].map(() =>
      createWebsiteCrawler({ allowHosts: [host], perDomainConcurrency: 2, sharedLimits: createConcurrencyLimiter({ pool: processPool() }), preloadTechnologies: false }),
    )
    try {
      const found = await Promise.all(crawlers.flatMap((crawler, c) => Array.from({ length: 5 }, (_, i) => crawler.crawl(`${site.url}/p${c}-s${i}/`))))
      for (const findings of found) expect(findings.pages).toHaveLength(4)
      expect(site.peak()).toBe(2)
      // Each process alone kept within 2 as well, so neither could have hidden the other's requests.
      for (const crawler of crawlers) expect(crawler.stats().peakPerHost[host]).toBeLessThanOrEqual(2)
    } finally {
      await Promise.all(crawlers.map((crawler) => crawler.close()))
    }
  })
})

describe('leases', () => {
  it('takes over the slots of a process that vanished once its leases expire', async () => {
    const key = `vanish-${Date.now()}`
    const vanishing = processPool()
    const gone = createConcurrencyLimiter({ pool: vanishing, ttlMs: 1_000, onError: () => undefined })
    await gone.acquire(key, 2)
    await gone.acquire(key, 2)
    // The process dies holding both: its pool closes, nothing is released, nobody renews.
    await vanishing.end()
    const survivor = createConcurrencyLimiter({ pool: processPool(), lingerMs: 0 })
    const start = performance.now()
    const release = await survivor.acquire(key, 2, AbortSignal.timeout(5_000))
    const waited = performance.now() - start
    expect(waited).toBeGreaterThan(500)
    expect(waited).toBeLessThan(2_500)
    release()
    await survivor.close()
    await gone.close()
  })

  it('renews the leases of a living process: they outlast their duration while held', async () => {
    const key = `renewed-${Date.now()}`
    const living = createConcurrencyLimiter({ pool: processPool(), ttlMs: 600, lingerMs: 0 })
    const release = await living.acquire(key, 1)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await leasesOf(key)).toBe(1)
    const other = createConcurrencyLimiter({ pool: processPool(), lingerMs: 0 })
    await expect(other.acquire(key, 1, AbortSignal.timeout(300))).rejects.toMatchObject({ name: 'TimeoutError' })
    release()
    await living.close()
    await other.close()
  })

  it('stops waiting when the caller aborts, leaves no lease behind, and the slot goes to the next one released', async () => {
    const key = `abort-${Date.now()}`
    const holder = createConcurrencyLimiter({ pool: processPool(), lingerMs: 0 })
    const first = await holder.acquire(key, 2)
    await holder.acquire(key, 2)
    const waiter = createConcurrencyLimiter({ pool: processPool(), lingerMs: 0 })
    const controller = new AbortController()
    const waiting = waiter.acquire(key, 2, controller.signal)
    setTimeout(() => controller.abort(new DOMException('gave up', 'AbortError')), 150)
    const start = performance.now()
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' })
    expect(performance.now() - start).toBeLessThan(1_000)
    expect(await leasesOf(key)).toBe(2)

    first()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const next = await waiter.acquire(key, 2, AbortSignal.timeout(1_000))
    expect(await leasesOf(key)).toBe(2)
    next()
    await holder.close()
    await waiter.close()
  })

  it('hands a lease just released to this process’s next request without a round trip, still counted for the others', async () => {
    const key = `linger-${Date.now()}`
    const busy = createConcurrencyLimiter({ pool: processPool(), lingerMs: 500 })
    ;(await busy.acquire(key, 1))()
    // Released here but still held in the database for a moment: another process waits…
    const other = createConcurrencyLimiter({ pool: processPool(), lingerMs: 0 })
    await expect(other.acquire(key, 1, AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'TimeoutError' })
    // …while this one gets it back at once.
    const again = await busy.acquire(key, 1, AbortSignal.timeout(50))
    again()
    // Unused, it goes back after the linger.
    const later = await other.acquire(key, 1, AbortSignal.timeout(2_000))
    later()
    await busy.close()
    await other.close()
  })
})

describe('window budgets', () => {
  it('counts one budget for every process and says how long until the window starts over', async () => {
    const key = `window-${Date.now()}`
    const [a, b] = [createWindowBudget(processPool()), createWindowBudget(processPool())]
    const window = [{ key, limit: 3, windowMs: 60_000 }]
    expect(await a.take(window)).toBe(0)
    expect(await b.take(window)).toBe(0)
    expect(await a.take(window)).toBe(0)
    const wait = await b.take(window)
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60_000)
  })

  it('counts a request in all its windows or in none', async () => {
    const stamp = Date.now()
    const budget = createWindowBudget(processPool())
    const minute = { key: `minute-${stamp}`, limit: 5, windowMs: 60_000 }
    const day = { key: `day-${stamp}`, limit: 1, windowMs: 86_400_000 }
    expect(await budget.take([minute, day])).toBe(0)
    expect(await budget.take([minute, day])).toBeGreaterThan(60_000)
    // The refused request did not use the minute's budget: 4 are left.
    for (let i = 0; i < 4; i++) expect(await budget.take([minute])).toBe(0)
    expect(await budget.take([minute])).toBeGreaterThan(0)
  })
})

describe('Overpass', () => {
  const osm = (endpoint: string, dailyRequests = 10_000) =>
    createOsmSource({ endpoint, userAgent: 'LeadAtlas/0.1 (+https://leadatlas.test/contact)', limits: createGlobalLimits(processPool()), dailyRequests, accountDailyPercent: 100 })

  // Concurrency at Overpass across processes: tests/integration/global-limits-processes.test.ts (in one process the
  // sources share this process's slots, so only separate processes show the global bound).

  it('shares the day budget between processes', async () => {
    const overpass = await countingOverpass(0)
    upstreams.push(overpass)
    const endpoint = `${overpass.url}/api/interpreter`
    const [a, b] = [osm(endpoint, 3), osm(endpoint, 3)]
    await collect(a, city('Lyon'), BAKERY)
    await collect(b, city('Bron'), BAKERY)
    await collect(a, city('Marseille'), BAKERY)
    const spent = await refusal(collect(b, city('Toulouse'), BAKERY))
    expect(spent.code).toBe('rate_limited')
    expect(spent.retryAfterSeconds).toBeGreaterThan(0)
    expect(spent.retryAfterSeconds).toBeLessThanOrEqual(86_400)
    expect(overpass.requests).toHaveLength(3)
  })

  it('pauses every process after a 429 with Retry-After', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'Retry-After': '60' }, body: 'Too Many Requests' }))
    const endpoint = `${server.url}/api/interpreter`
    expect((await refusal(collect(osm(endpoint), city('Lyon'), BAKERY))).retryAfterSeconds).toBe(60)
    // Another process knows nothing of this one's memory: only the database tells it.
    clearOverpassCache()
    const other = await refusal(collect(osm(endpoint), city('Bron'), BAKERY))
    expect(other.code).toBe('rate_limited')
    expect(other.retryAfterSeconds).toBeGreaterThan(55)
    expect(server.requests).toHaveLength(1)
  })
})

describe('Google Places', () => {
  it('shares the day quota of one API key between processes', async () => {
    const server = await serve(() => ({ body: { places: [{ id: 'p1', displayName: { text: 'Boulangerie' } }] } }))
    const apiKey = `key-${Date.now()}`
    const google = () => createGoogleSource({ apiKey, baseUrl: server.url, limits: createGlobalLimits(processPool()), dailyRequests: 2, accountDailyPercent: 100 })
    const [a, b] = [google(), google()]
    expect(await collect(a, city('Lyon'), BAKERY)).toHaveLength(1)
    expect(await collect(b, city('Bron'), BAKERY)).toHaveLength(1)
    const spent = await refusal(collect(a, city('Marseille'), BAKERY))
    expect(spent.code).toBe('rate_limited')
    expect(server.requests).toHaveLength(2)
  })

  it('pauses every process calling with the key after a 429 with Retry-After', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'Retry-After': '30' }, body: { error: { code: 429, message: 'Quota exceeded' } } }))
    const apiKey = `key-${Date.now()}`
    const google = () => createGoogleSource({ apiKey, baseUrl: server.url, limits: createGlobalLimits(processPool()) })
    expect(await refusal(collect(google(), city('Lyon'), BAKERY))).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30 })
    const other = await refusal(collect(google(), city('Bron'), BAKERY))
    expect(other.code).toBe('rate_limited')
    expect(other.retryAfterSeconds).toBeGreaterThan(25)
    expect(server.requests).toHaveLength(1)
  })
})
