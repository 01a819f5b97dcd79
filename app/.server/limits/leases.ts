/**
 * Concurrency limits for every process together: at most `limit` requests in flight per key (a website's registrable
 * host, an Overpass endpoint), counted as leases in Postgres (supabase/migrations/20261128140000_global_limits.sql).
 *
 * - A lease expires `ttlMs` after its last renewal; this process renews all its leases in one query every `ttlMs / 3`.
 *   A process that dies stops renewing, so its slots come back within `ttlMs` (default 10 s, LIMIT_LEASE_MS).
 * - A full key is asked again after a short, growing, jittered wait (polling.ts); the caller's AbortSignal ends the
 *   wait at once, and a lease granted to a caller that aborted meanwhile is given back.
 * - Fast path: a lease released here is kept for `lingerMs` and handed to the next request of this process for the
 *   same key without a round trip (a crawl's pages follow each other within milliseconds). It still counts in the
 *   database meanwhile, so the bound holds; a lease is given back for good once it has been held `maxHoldMs`, so a
 *   busy process does not keep another one's turn from it.
 *
 * Callers put a local limiter in front (at most `limit` per key in this process): waiting then happens in memory and
 * only requests that may run ask the database.
 */
import os from 'node:os'
import type pg from 'pg'
import { DEFAULT_POLL, type PollSchedule, pollDelay } from './polling.ts'
import { sleep } from '#app/.server/enrichment/limits.ts'

/** Gives the slot back (idempotent). */
export type ReleaseLease = () => void

export interface ConcurrencyLimiter {
  /** Waits (abortable) for one of `limit` slots of `key` across every process. */
  acquire(key: string, limit: number, signal?: AbortSignal): Promise<ReleaseLease>
  /** Gives back every lease this process holds (idle or not) and stops renewing. */
  close(): Promise<void>
}

export interface ConcurrencyLimiterOptions {
  pool: Pick<pg.Pool, 'query'>
  /** Default 10 000 ms. */
  ttlMs?: number
  /** Default 150 ms; 0: every release goes to the database at once. */
  lingerMs?: number
  /** Default 2 000 ms. */
  maxHoldMs?: number
  poll?: PollSchedule
  /** A database error while renewing or releasing (the request itself goes on). */
  onError?: (error: unknown) => void
}

interface Lease {
  id: string
  key: string
  since: number
  /** Set while the lease lingers unused. */
  idleTimer?: NodeJS.Timeout
}

export function createConcurrencyLimiter(options: ConcurrencyLimiterOptions): ConcurrencyLimiter {
  return new LeaseLimiter(options)
}

class LeaseLimiter implements ConcurrencyLimiter {
  private readonly pool: Pick<pg.Pool, 'query'>
  private readonly ttlMs: number
  private readonly lingerMs: number
  private readonly maxHoldMs: number
  private readonly poll: PollSchedule
  private readonly onError: (error: unknown) => void
  private readonly holder = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
  /** Every lease this process holds, in use or idle: all are renewed. */
  private readonly held = new Map<string, Lease>()
  private readonly idle = new Map<string, Lease[]>()
  private renewTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor(options: ConcurrencyLimiterOptions) {
    this.pool = options.pool
    this.ttlMs = options.ttlMs ?? 10_000
    this.lingerMs = options.lingerMs ?? 150
    this.maxHoldMs = options.maxHoldMs ?? 2_000
    this.poll = options.poll ?? DEFAULT_POLL
    this.onError = options.onError ?? ((error: unknown) => console.error('[limits] lease bookkeeping failed:', (error as Error).message))
  }

  async acquire(key: string, limit: number, signal?: AbortSignal): Promise<ReleaseLease> {
    if (this.closed) throw new Error('concurrency limiter is closed')
    signal?.throwIfAborted()
    const lease = this.takeIdle(key) ?? (await this.takeFromDatabase(key, Math.max(1, limit), signal))
    // Aborted while the lease was being granted: nobody will send, so it goes back at once.
    if (signal?.aborted) {
      this.giveBack(lease)
      signal.throwIfAborted()
    }
    let released = false
    return () => {
      if (released) return
      released = true
      if (!this.closed && this.lingerMs > 0 && Date.now() - lease.since < this.maxHoldMs) this.park(lease)
      else this.giveBack(lease)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.renewTimer)
    this.renewTimer = undefined
    for (const list of this.idle.values()) for (const lease of list) clearTimeout(lease.idleTimer)
    this.idle.clear()
    const ids = [...this.held.keys()]
    this.held.clear()
    if (ids.length) await this.pool.query('select public.limit_lease_release($1)', [ids]).catch(this.onError)
  }

  private async takeFromDatabase(key: string, limit: number, signal?: AbortSignal): Promise<Lease> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted()
      const { rows } = await this.pool.query<{ lease: string | null }>('select public.limit_lease_take($1, $2, $3, $4) as lease', [key, limit, this.holder, this.ttlMs])
      const id = rows[0]?.lease ?? null
      if (id !== null) {
        const lease: Lease = { id: String(id), key, since: Date.now() }
        this.held.set(lease.id, lease)
        this.startRenewing()
        return lease
      }
      await sleep(pollDelay(attempt, Math.random(), this.poll), signal)
    }
  }

  private startRenewing() {
    if (this.renewTimer || this.closed) return
    this.renewTimer = setInterval(() => {
      if (this.held.size === 0) {
        clearInterval(this.renewTimer)
        this.renewTimer = undefined
        return
      }
      this.pool.query('select public.limit_lease_renew($1, $2)', [[...this.held.keys()], this.ttlMs]).catch(this.onError)
    }, Math.max(100, Math.floor(this.ttlMs / 3)))
    // Renewing must not keep a process alive that has nothing else to do.
    this.renewTimer.unref()
  }

  private giveBack(lease: Lease) {
    this.held.delete(lease.id)
    this.pool.query('select public.limit_lease_release($1)', [[lease.id]]).catch(this.onError)
  }

  private takeIdle(key: string): Lease | undefined {
    const list = this.idle.get(key)
    const lease = list?.pop()
    if (list && list.length === 0) this.idle.delete(key)
    if (lease) {
      clearTimeout(lease.idleTimer)
      lease.idleTimer = undefined
    }
    return lease
  }

  private park(lease: Lease) {
    const list = this.idle.get(lease.key) ?? []
    list.push(lease)
    this.idle.set(lease.key, list)
    lease.idleTimer = setTimeout(() => {
      const rest = (this.idle.get(lease.key) ?? []).filter((other) => other !== lease)
      if (rest.length) this.idle.set(lease.key, rest)
      else this.idle.delete(lease.key)
      this.giveBack(lease)
    }, this.lingerMs)
    lease.idleTimer.unref()
  }
}
