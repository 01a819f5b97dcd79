// Global limits overhead (app/.server/limits/leases.ts): requests that each take a slot, hold it for a site's answer
// time and give it back, with the slots counted in this process only (the baseline: what one process did before) and
// with the deployment-wide leases in Postgres (a fresh embedded cluster, the limits' own 2-connection pool), in three
// shapes: every request on one key (the demo server: all demo sites share its host), the same at a realistic site
// latency, and many sites at 2 slots each (the real web).
//
//   npx tsx bench/limits.ts [--seconds 6]
import os from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { KeyedSemaphore } from '#app/.server/enrichment/limits.ts'
import { createConcurrencyLimiter } from '#app/.server/limits/leases.ts'
import { startBenchDatabase } from './lib/database.ts'
import { printTable } from './lib/table.ts'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '6' } } })
const seconds = Number(values.seconds)

interface Shape {
  name: string
  requests: number
  sites: number
  perSite: number
  holdMs: number
}

const SHAPES: Shape[] = [
  { name: 'one host (demo server), 50 ms answers', requests: 256, sites: 1, perSite: 512, holdMs: 50 },
  { name: 'one host (demo server), 0.9–2.7 s answers', requests: 300, sites: 1, perSite: 512, holdMs: 1_800 },
  { name: '128 sites × 2 slots, 50 ms answers', requests: 256, sites: 128, perSite: 2, holdMs: 50 },
]

type Acquire = (key: string, limit: number) => Promise<() => void>
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Requests in a loop for `seconds`: requests/s done, and the mean and p99 wait for a slot. */
async function measure(shape: Shape, acquire: Acquire) {
  const waits: number[] = []
  const end = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: shape.requests }, async (_, i) => {
      while (Date.now() < end) {
        const start = performance.now()
        const release = await acquire(`bench-site-${i % shape.sites}`, shape.perSite)
        waits.push(performance.now() - start)
        // A site's answer time, spread ±50 % around the shape's.
        await sleep(shape.holdMs * (0.5 + Math.random()))
        release()
      }
    }),
  )
  waits.sort((a, b) => a - b)
  const mean = waits.reduce((sum, wait) => sum + wait, 0) / waits.length
  return { perSecond: Math.round(waits.length / seconds), mean: mean.toFixed(2), p99: (waits[Math.floor(waits.length * 0.99)] ?? 0).toFixed(1) }
}

const db = await startBenchDatabase()
const rows: Array<Array<string | number>> = []
try {
  for (const shape of SHAPES) {
    const local = new KeyedSemaphore(() => shape.perSite)
    const baseline = await measure(shape, (key) => local.acquire(key))
    const pool = new pg.Pool({ connectionString: db.url, max: 2 })
    const leases = createConcurrencyLimiter({ pool })
    // As the crawler does: this process's own limit in front, the deployment's behind it.
    const global = await measure(shape, async (key, limit) => {
      const release = await local.acquire(key)
      const lease = await leases.acquire(key, limit)
      return () => {
        lease()
        release()
      }
    })
    await leases.close()
    await pool.end()
    rows.push([shape.name, baseline.perSecond, global.perSecond, baseline.mean, global.mean, global.p99])
  }
} finally {
  await db.stop()
}
console.log(`\nGlobal limits overhead: ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')}, ${seconds} s per run\n`)
printTable(['shape', 'req/s in-process', 'req/s global', 'wait ms in-process', 'wait ms global', 'p99 wait ms global'], rows)
