// The registry budget (app/.server/registry/limiter.ts): one limit for every process of a deployment, measured where
// it matters (at the registry), shared fairly between the enrichment and the registry-first search, and paused for
// everyone by a 429's Retry-After.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest'
import { createRegistrySearch } from '#app/.server/enrichment/registry-http.ts'
import { createRegistryLimiter, registryLimiterKey, type RegistryClass } from '#app/.server/registry/limiter.ts'

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

/**
 * A fake registry in a process of its own, so the arrival times it notes are not delayed by the clients' event loop
 * (this test process): it answers every search with no result, except a 429 with Retry-After: 2 to the first request
 * whose q is `REFUSE_Q`, and lists what reached it (time, q) at /arrivals.
 */
const FAKE_REGISTRY = `
const http = require('node:http')
const arrivals = []
let refuse = process.env.REFUSE_Q || ''
const server = http.createServer((req, res) => {
  const at = performance.now()
  const url = new URL(req.url, 'http://x')
  if (url.pathname === '/arrivals') return res.end(JSON.stringify(arrivals))
  const q = url.searchParams.get('q') || ''
  arrivals.push({ at, q })
  if (refuse && q === refuse) {
    refuse = ''
    res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' })
    return res.end('{"erreur":"Trop de requêtes"}')
  }
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end('{"results":[],"total_results":0}')
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill()
})

async function timedRegistry(refuseQ = '') {
  const child = spawn(process.execPath, ['-e', FAKE_REGISTRY], { env: { ...process.env, REFUSE_Q: refuseQ }, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  const url = `http://127.0.0.1:${line.toString().trim()}`
  const arrivals = async () => ((await (await fetch(`${url}/arrivals`)).json()) as Array<{ at: number; q: string }>)
  return { url, arrivals }
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
    const arrivals = await registry.arrivals()
    expect(arrivals).toHaveLength(2 * n)
    expect(peakPerSecond(arrivals.map((a) => a.at))).toBeLessThanOrEqual(7)
    // Not slower than needed either: 28 requests at 7 per (1 s + margin) is about 3.5 s.
    expect(elapsed).toBeGreaterThanOrEqual(3_000)
    expect(elapsed).toBeLessThan(7_000)
    // Both processes were served all along, not one after the other.
    const firstHalf = arrivals.slice(0, n).map((a) => a.q.split(' ')[0])
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
    const arrivals = await registry.arrivals()
    expect(peakPerSecond(arrivals.map((a) => a.at))).toBeLessThanOrEqual(7)
    // 8 search requests at their half share (4 per window) take about 2 windows (2.2 s), not the 4+ s of waiting for
    // the enrichment's backlog to drain (with room for a busy machine).
    expect(searchElapsed).toBeLessThan(3_600)
    // While both wanted the registry, each got its share of every window.
    const searching = arrivals.filter((a) => a.q.startsWith('search'))
    const during = arrivals.filter((a) => a.at >= (searching[0]?.at ?? 0) && a.at <= (searching.at(-1)?.at ?? 0))
    expect(during.filter((a) => a.q.startsWith('enrichment')).length).toBeGreaterThanOrEqual(3)
  })

  it('pauses every process after a 429 with Retry-After', async () => {
    const registry = await timedRegistry('first 0')
    const first = processClient(registry.url)
    const second = processClient(registry.url)
    const firstDone = first({ q: 'first 0' })
    while ((await registry.arrivals()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, 50))
    // The other process had nothing to do with the 429, yet waits too.
    const [a, b] = await Promise.all([firstDone, second({ q: 'second 0' })])
    expect([a.kind, b.kind]).toEqual(['ok', 'ok'])
    const [refused, ...after] = await registry.arrivals()
    expect(after.map((arrival) => arrival.q).sort()).toEqual(['first 0', 'second 0'])
    for (const arrival of after) expect(arrival.at - refused!.at).toBeGreaterThanOrEqual(1_950)
  })

  it('lets a caller give up while it waits, without holding a slot or the callers behind it', async () => {
    const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
    pools.push(pool)
    const limiter = createRegistryLimiter({ pool, key: `abort-${Date.now()}.test`, requestsPerSecond: 1 })
    const release = await limiter.take('enrichment')
    await release()
    const controller = new AbortController()
    const start = performance.now()
    const waiting = limiter.take('enrichment', controller.signal)
    const behind = limiter.take('enrichment')
    setTimeout(() => controller.abort(new Error('export cancelled')), 100)
    await expect(waiting).rejects.toThrow('export cancelled')
    expect(performance.now() - start).toBeLessThan(500)
    // The one behind gets the next slot when the window ends, not a window later.
    await (await behind)()
    expect(performance.now() - start).toBeGreaterThanOrEqual(800)
    expect(performance.now() - start).toBeLessThan(1_800)
  })
})
