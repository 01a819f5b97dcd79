/**
 * The limits every process of a deployment shares (leases.ts, windows.ts, pauses.ts), on one database pool. The app
 * and the worker use the one on the app's database; without DATABASE_URL (scripts, unit tests) there is no other
 * process to share with, and callers keep their in-process limits only.
 */
import pg from 'pg'
import { type ConcurrencyLimiter, createConcurrencyLimiter } from './leases.ts'
import { createPauseBoard, type PauseBoard } from './pauses.ts'
import { createWindowBudget, type WindowBudget } from './windows.ts'
import { env } from '#app/.server/env.server.ts'

export interface GlobalLimits {
  concurrency: ConcurrencyLimiter
  budgets: WindowBudget
  pauses: PauseBoard
}

export function createGlobalLimits(pool: Pick<pg.Pool, 'query'>, options: { leaseMs?: number } = {}): GlobalLimits {
  return {
    concurrency: createConcurrencyLimiter({ pool, ...(options.leaseMs ? { ttlMs: options.leaseMs } : {}) }),
    budgets: createWindowBudget(pool),
    pauses: createPauseBoard(pool),
  }
}

const KEY = Symbol.for('leadatlas.global-limits')
type WithLimits = typeof globalThis & { [KEY]?: GlobalLimits }

/**
 * The deployment's limits on the app's database, created at first use (building a crawler or a source must not need
 * the database yet); null without DATABASE_URL. On globalThis: the app's bundle and the in-process worker load their
 * own copies of this module and must hold one set of leases.
 */
export function deploymentLimits(): GlobalLimits | null {
  if (!env.DATABASE_URL) return null
  const holder = globalThis as WithLimits
  if (holder[KEY]) return holder[KEY]
  // A pool of its own: a lease query must not queue behind an export's writes (the app's pool is often all busy), and
  // two connections are plenty for queries of a millisecond. Idle, it lets the process exit.
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2, application_name: 'leadatlas-limits', allowExitOnIdle: true })
  pool.on('error', (error) => console.error('[limits] idle client error:', error.message))
  return (holder[KEY] = createGlobalLimits(pool, { leaseMs: env.LIMIT_LEASE_MS }))
}
