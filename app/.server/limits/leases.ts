/**
 * Concurrency limits for every process together: at most `limit` requests in flight per key (a website's host, an
 * Overpass endpoint), counted as leases in Postgres (supabase/migrations/20261128140000_global_limits.sql).
 *
 * - A lease expires `ttlMs` after its last renewal; this process renews all its leases in one query every `ttlMs / 3`.
 *   A process that dies stops renewing, so its slots come back within `ttlMs` (default 10 s, LIMIT_LEASE_MS).
 * - The requests of this process waiting on a key are served together: one query asks for as many leases as there are
 *   waiters; a full key is asked again after a short, growing, jittered wait (polling.ts). A caller's AbortSignal ends
 *   its wait at once; a lease granted to nobody (every waiter gave up meanwhile) is given back.
 * - Fast path: a lease released here goes straight to the next request of this process waiting on its key, or is kept
 *   `lingerMs` for the next one (a crawl's pages follow each other within milliseconds), without a round trip. It
 *   still counts in the database meanwhile, so the bound holds; a lease is given back for good once it has been held
 *   `maxHoldMs`, so a busy process does not keep another one's turn from it. Releases of one tick go in one query.
 *
 * Callers put a local limiter in front (at most `limit` per key in this process): waiting then happens in memory and
 * only requests that may run ask the database.
 *
 * With an account (an upstream shared by every user, like Overpass; fair.ts), the slots of a key go round-robin
 * between the accounts waiting for it, in every process: each account of this process asks for its own waiters, and
 * a released lease goes back to the database (no fast path) so that the next turn is decided there.
 */
import os from 'node:os'
import type pg from 'pg'
import { DEFAULT_POLL, type PollSchedule, pollDelay } from './polling.ts'
import { sleep } from '#app/.server/enrichment/limits.ts'

/** Gives the slot back (idempotent). */
export type ReleaseLease = () => void

export interface ConcurrencyLimiter {
  /**
   * Waits (abortable) for one of `limit` slots of `key` across every process; with `account`, served round-robin
   * between the accounts waiting on the key.
   */
  acquire(key: string, limit: number, signal?: AbortSignal, account?: string): Promise<ReleaseLease>
  /** Gives back every lease this process holds (idle or not) and stops renewing. */
  close(): Promise<void>
}

export interface ConcurrencyLimiterOptions {
  pool: Pick<pg.Pool, 'query'>
  /** Default 10 000 ms. */
  ttlMs?: number
  /** Default 150 ms; 0: a lease nobody here waits for goes back to the database at once. */
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
  /** The demand it was asked for (the key, or the key and an account). */
  demand: string
  /** Asked for an account: never kept nor handed on here, the database decides whose turn is next. */
  fair: boolean
  since: number
  /** Set while the lease lingers unused. */
  idleTimer?: NodeJS.Timeout
}

interface Waiter {
  resolve: (lease: Lease) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
}

/** The requests of this process waiting on one key, and whether a loop is asking the database for them. */
interface Demand {
  key: string
  account: string | undefined
  limit: number
  queue: Waiter[]
  asking: boolean
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
  private readonly demand = new Map<string, Demand>()
  private releasing: string[] = []
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

  async acquire(key: string, limit: number, signal?: AbortSignal, account?: string): Promise<ReleaseLease> {
    if (this.closed) throw new Error('concurrency limiter is closed')
    signal?.throwIfAborted()
    const lease = (account === undefined ? this.takeIdle(key) : undefined) ?? (await this.wait(key, account, Math.max(1, limit), signal))
    // Aborted as the lease came: nobody will send, so it goes to the next request or back.
    if (signal?.aborted) {
      this.reuseOrGiveBack(lease)
      signal.throwIfAborted()
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.reuseOrGiveBack(lease)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const demand of this.demand.values()) for (const waiter of demand.queue.splice(0)) this.settle(waiter).reject(new Error('concurrency limiter is closed'))
    clearInterval(this.renewTimer)
    this.renewTimer = undefined
    for (const list of this.idle.values()) for (const lease of list) clearTimeout(lease.idleTimer)
    this.idle.clear()
    const ids = [...this.held.keys()]
    this.held.clear()
    if (ids.length) await this.pool.query('select public.limit_lease_release($1)', [ids]).catch(this.onError)
  }

  /** Queues this request on the key's demand and makes sure a loop asks the database for it. */
  private wait(key: string, account: string | undefined, limit: number, signal: AbortSignal | undefined): Promise<Lease> {
    const name = account === undefined ? key : `${key}\n${account}`
    let demand = this.demand.get(name)
    if (!demand) this.demand.set(name, (demand = { key, account, limit, queue: [], asking: false }))
    const queue = demand.queue
    const lease = new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined }
      if (signal) {
        waiter.onAbort = () => {
          const index = queue.indexOf(waiter)
          if (index >= 0) queue.splice(index, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      queue.push(waiter)
    })
    if (!demand.asking) void this.ask(name, demand)
    return lease
  }

  /** Asks the database for the key's waiters until none is left, backing off while the key is full. */
  private async ask(name: string, demand: Demand): Promise<void> {
    demand.asking = true
    const { key, account } = demand
    try {
      for (let attempt = 0; demand.queue.length > 0 && !this.closed; ) {
        const { rows } =
          account === undefined
            ? await this.pool.query<{ id: string }>('select id from public.limit_lease_take($1, $2, $3, $4, $5) as id', [key, demand.limit, this.holder, this.ttlMs, demand.queue.length])
            : await this.pool.query<{ id: string }>('select id from public.limit_lease_take($1, $2, $3, $4, $5, $6, $7) as id', [
                key,
                demand.limit,
                this.holder,
                this.ttlMs,
                demand.queue.length,
                account,
                // An account waiting here asks again within the poll's ceiling: it keeps its turn that long.
                this.poll.maxMs * 2 + 250,
              ])
        for (const { id } of rows) this.hand({ id: String(id), key, demand: name, fair: account !== undefined, since: Date.now() })
        if (demand.queue.length === 0) break
        attempt = rows.length > 0 ? 0 : attempt + 1
        await sleep(pollDelay(attempt, Math.random(), this.poll))
      }
    } catch (error) {
      for (const waiter of demand.queue.splice(0)) this.settle(waiter).reject(error)
    } finally {
      demand.asking = false
      if (demand.queue.length === 0 && this.demand.get(name) === demand) this.demand.delete(name)
      else if (demand.queue.length > 0 && !this.closed) void this.ask(name, demand)
    }
  }

  /** A lease for this process: to the first request waiting on its key, else kept a moment, else given back. */
  private hand(lease: Lease) {
    if (!this.held.has(lease.id)) {
      this.held.set(lease.id, lease)
      this.startRenewing()
    }
    const waiter = this.demand.get(lease.demand)?.queue.shift()
    if (waiter) this.settle(waiter).resolve(lease)
    else if (!this.closed && this.lingerMs > 0 && !lease.fair) this.park(lease)
    else this.giveBack(lease)
  }

  private reuseOrGiveBack(lease: Lease) {
    if (this.closed || lease.fair || Date.now() - lease.since >= this.maxHoldMs) this.giveBack(lease)
    else this.hand(lease)
  }

  private settle(waiter: Waiter): Waiter {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort)
    return waiter
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
    this.releasing.push(lease.id)
    if (this.releasing.length > 1) return
    setImmediate(() => {
      const ids = this.releasing
      this.releasing = []
      this.pool.query('select public.limit_lease_release($1)', [ids]).catch(this.onError)
    })
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
