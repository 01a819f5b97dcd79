/**
 * The registry's request budget, shared by every process of a deployment (supabase/migrations/
 * 20261128120000_registry_limits.sql): recherche-entreprises allows 7 requests/s per IP, and every app server and
 * worker calls it from the same address. A request holds its slot from its grant until its answer, then for one
 * window (1 s at 7/s): the answer comes after the registry saw the request, so the registry never sees more than the
 * limit in any window, whatever delays a busy process had between grant and send. Counted on the database's clock,
 * one row lock per grant, so two processes never both take the last slot.
 *
 * Two classes share the budget: the enrichment's lookups and the registry-first search. Each is guaranteed half of
 * it (rounded up) whenever the other is waiting, and may use all of it while the other is idle. Within a class, the
 * slots go round-robin between the accounts waiting for one, in every process (fair.ts): three users flooding the
 * registry-first search leave a fourth one a slot in about four, not a place behind their queues. A 429's Retry-After
 * pauses every process (registry_limiter_pause).
 */
import type pg from 'pg'
import { sleep } from '#app/.server/enrichment/limits.ts'
import { currentAccount } from '#app/.server/limits/account.ts'
import type { Env } from '#app/.server/env.server.ts'

export type RegistryClass = 'enrichment' | 'search'

/** Gives the slot back when its request is answered (or failed): it stays counted for one window from then. */
type ReleaseSlot = () => Promise<void>

export interface RegistryLimiter {
  /**
   * Waits for a request slot of `registryClass` (abortable), in the current account's turn (account.ts); call the
   * release once the request is over.
   */
  take(registryClass: RegistryClass, signal?: AbortSignal): Promise<ReleaseSlot>
  /** Holds every process's requests for `ms` (a 429's Retry-After). */
  pauseFor(ms: number): Promise<void>
}

export interface RegistryLimiterOptions {
  pool: Pick<pg.Pool, 'query'>
  /** One budget per upstream: the registry's host. */
  key: string
  requestsPerSecond: number
  /** A slot never released (its process died) is freed this long after its grant; default 30 s. */
  staleMs?: number
}

/** The public registry's documented limit; the local demo registry is ours and much faster. */
export function registryRequestsPerSecond(config: Pick<Env, 'REGISTRY_REQUESTS_PER_SECOND'>, localRegistry: boolean): number {
  return config.REGISTRY_REQUESTS_PER_SECOND ?? (localRegistry ? 100 : 7)
}

/** The budget key of a registry base URL: its host (the limit is per client address, whatever the path). */
export function registryLimiterKey(baseUrl: string): string {
  return new URL(baseUrl).host.toLowerCase()
}

/** `promise`, or its signal's reason as soon as it aborts (the listener is removed either way). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export function createRegistryLimiter(options: RegistryLimiterOptions): RegistryLimiter {
  const rate = options.requestsPerSecond
  if (!(rate > 0)) throw new RangeError('requestsPerSecond must be positive')
  // 7/s → 7 per 1000 ms; 0.5/s → 1 per 2000 ms; 2.5/s → 2 per 800 ms.
  const limit = Math.max(1, Math.floor(rate))
  const windowMs = (1000 * limit) / rate
  const share = Math.ceil(limit / 2)
  const staleMs = options.staleMs ?? 30_000
  // One taker per class and account at a time in this process: the others queue here instead of polling the
  // database; the accounts' takers ask side by side, and the database says whose turn it is.
  const chains = new Map<string, Promise<unknown>>()
  const queued = new Map<string, number>()
  const count = (name: string, step: number) => {
    const next = (queued.get(name) ?? 0) + step
    if (next > 0) queued.set(name, next)
    else queued.delete(name)
  }

  async function waitForSlot(registryClass: RegistryClass, account: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    for (;;) {
      signal?.throwIfAborted()
      // Takers queued behind this one keep the class "waiting", so the other class stays within its share; and the
      // account, so it keeps its place in the round-robin.
      const more = (queued.get(registryClass) ?? 0) > 1
      const accountMore = (queued.get(`${registryClass}\n${account}`) ?? 0) > 1
      const { rows } = await options.pool.query<{ wait_ms: number; slot: number | null }>(
        'select wait_ms, slot from public.registry_limiter_take($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [options.key, registryClass, limit, windowMs, share, more, staleMs, account, accountMore],
      )
      const { wait_ms: wait, slot } = rows[0] ?? { wait_ms: 50, slot: null }
      if (slot !== null) {
        const done = release(slot)
        // Aborted while the slot was being granted: nobody will send, so the slot is given back at once.
        if (signal?.aborted) {
          await done()
          signal.throwIfAborted()
        }
        return done
      }
      await sleep(Math.ceil(Number(wait)), signal)
    }
  }

  function release(slot: number): ReleaseSlot {
    let released = false
    return async () => {
      if (released) return
      released = true
      await options.pool.query('select public.registry_limiter_done($1, $2)', [options.key, slot])
    }
  }

  return {
    take(registryClass, signal) {
      const account = currentAccount()
      const chain = `${registryClass}\n${account}`
      count(registryClass, 1)
      count(chain, 1)
      const turn = (chains.get(chain) ?? Promise.resolve())
        .then(() => waitForSlot(registryClass, account, signal))
        .finally(() => {
          count(registryClass, -1)
          count(chain, -1)
        })
      // A caller that aborts must not block the ones behind it, nor wait for its turn to hear it.
      const settled = turn.catch(() => undefined)
      chains.set(chain, settled)
      // The last taker of an account leaves no chain behind (one per user would pile up).
      void settled.then(() => {
        if (chains.get(chain) === settled) chains.delete(chain)
      })
      return signal ? abortable(turn, signal) : turn
    },
    async pauseFor(ms) {
      await options.pool.query('select public.registry_limiter_pause($1, $2)', [options.key, ms])
    },
  }
}
