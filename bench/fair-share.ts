// Fair shares between accounts (app/.server/limits/fair.ts): a victim's request latency on the shared budgets, quiet
// and while three accounts flood them, in the same run. "no fair share" puts the victim in the floods' account: its
// requests queue behind theirs as every request did before (first come, first served).
//
//   registry   the registry's 7 requests/s (search class), each flood keeping 20 searches queued, the victim
//              asking one search at a time;
//   overpass   the Overpass endpoint's 2 slots across two processes, each flood keeping 10 queries of 400 ms
//              queued, the victim asking one query at a time.
//
//   npx tsx bench/fair-share.ts [--victim 6]
import os from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { createConcurrencyLimiter } from '#app/.server/limits/leases.ts'
import { createRegistryLimiter } from '#app/.server/registry/limiter.ts'
import { startBenchDatabase } from './lib/database.ts'
import { printTable } from './lib/table.ts'

const { values } = parseArgs({ options: { victim: { type: 'string', default: '6' } } })
const victimRequests = Number(values.victim)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `take` for `account` in a loop, `depth` at a time, until `stop` aborts. */
function flood(account: string, depth: number, take: (signal: AbortSignal) => Promise<() => Promise<void> | void>, stop: AbortSignal): Promise<unknown> {
  return Promise.all(
    Array.from({ length: depth }, () =>
      onBehalfOf(account, async () => {
        while (!stop.aborted) {
          const release = await take(stop).catch(() => null)
          if (!release) return
          await release()
        }
      }),
    ),
  )
}

/** The victim's waits (ms), one request after another. */
async function victim(account: string, take: (signal: AbortSignal) => Promise<() => Promise<void> | void>): Promise<number[]> {
  const waits: number[] = []
  for (let i = 0; i < victimRequests; i++) {
    const start = performance.now()
    const release = await onBehalfOf(account, () => take(AbortSignal.timeout(120_000)))
    waits.push(performance.now() - start)
    await release()
    await sleep(100)
  }
  return waits.sort((a, b) => a - b)
}

type Take = (signal: AbortSignal) => Promise<() => Promise<void> | void>

async function scenario(takes: { flood: Take[]; victim: Take }, mode: 'quiet' | 'fair' | 'unfair', depth: number) {
  const stop = new AbortController()
  const floods =
    mode === 'quiet' ? [] : takes.flood.map((take, i) => flood(mode === 'fair' ? `heavy-${i}` : 'shared', depth, take, stop.signal))
  if (floods.length) await sleep(500)
  const waits = await victim(mode === 'unfair' ? 'shared' : 'victim', takes.victim)
  stop.abort()
  await Promise.all(floods)
  const p50 = waits[Math.floor(waits.length / 2)] ?? 0
  return { p50: Math.round(p50), max: Math.round(waits[waits.length - 1] ?? 0) }
}

const db = await startBenchDatabase()
const pools: pg.Pool[] = []
const pool = () => {
  const created = new pg.Pool({ connectionString: db.url, max: 3 })
  pools.push(created)
  return created
}
const rows: Array<Array<string | number>> = []
try {
  for (const mode of ['quiet', 'fair', 'unfair'] as const) {
    // A fresh budget per scenario: nothing left of the previous one's windows.
    const key = `bench-registry-${mode}`
    const [a, b] = [createRegistryLimiter({ pool: pool(), key, requestsPerSecond: 7 }), createRegistryLimiter({ pool: pool(), key, requestsPerSecond: 7 })]
    const registry = await scenario({ flood: [(s) => a.take('search', s), (s) => a.take('search', s), (s) => b.take('search', s)], victim: (s) => b.take('search', s) }, mode, 20)
    rows.push([`registry 7/s, ${mode === 'quiet' ? 'quiet' : `3 floods, ${mode === 'fair' ? 'fair share' : 'no fair share'}`}`, registry.p50, registry.max])
  }
  for (const mode of ['quiet', 'fair', 'unfair'] as const) {
    const key = `bench-overpass-${mode}`
    const [a, b] = [createConcurrencyLimiter({ pool: pool() }), createConcurrencyLimiter({ pool: pool() })]
    const query = (limiter: typeof a, account: () => string | undefined) => async (signal: AbortSignal) => {
      const release = await limiter.acquire(key, 2, signal, account())
      return async () => {
        await sleep(400)
        release()
      }
    }
    // The victim's own query holds its slot 400 ms too, but that is not waiting: only the wait is measured.
    const overpass = await scenario(
      {
        flood: [query(a, () => (mode === 'fair' ? 'heavy-0' : 'shared')), query(a, () => (mode === 'fair' ? 'heavy-1' : 'shared')), query(b, () => (mode === 'fair' ? 'heavy-2' : 'shared'))],
        victim: query(b, () => (mode === 'unfair' ? 'shared' : 'victim')),
      },
      mode,
      10,
    )
    await Promise.all([a.close(), b.close()])
    rows.push([`overpass 2 slots, ${mode === 'quiet' ? 'quiet' : `3 floods, ${mode === 'fair' ? 'fair share' : 'no fair share'}`}`, overpass.p50, overpass.max])
  }
} finally {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)))
  await db.stop()
}
console.log(`\nVictim latency on the shared budgets: ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')}, ${victimRequests} victim requests per row\n`)
printTable(['budget, scenario', 'victim wait p50 ms', 'victim wait max ms'], rows)
