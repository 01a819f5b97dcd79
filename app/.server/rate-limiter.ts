/**
 * Rate limits on everything that costs us or guards an account, counted in Postgres through
 * rate-limiter-flexible, so they hold across app instances (and the local auth server).
 *
 * Each limit is "points/seconds[/blockSeconds]" with a strict default and its own environment
 * variable (both in the schema, app/.server/env-schema.server.ts): e.g. RATE_LIMIT_SIGNIN_ACCOUNT=5/900/900
 * allows 5 failed sign-ins per account in 15 minutes, then locks the account's sign-in for 15 minutes.
 */
import crypto from 'node:crypto'
import type pg from 'pg'
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { countRateLimitRefusal } from '#app/.server/observability/metrics.ts'

/** The variable of each limit. */
const RATE_LIMITS = {
  signinAccount: 'RATE_LIMIT_SIGNIN_ACCOUNT',
  signinIp: 'RATE_LIMIT_SIGNIN_IP',
  signupIp: 'RATE_LIMIT_SIGNUP_IP',
  signupNetwork: 'RATE_LIMIT_SIGNUP_NETWORK',
  signupGlobal: 'RATE_LIMIT_SIGNUP_GLOBAL',
  forgotIp: 'RATE_LIMIT_FORGOT_IP',
  forgotEmail: 'RATE_LIMIT_FORGOT_EMAIL',
  verifyIp: 'RATE_LIMIT_VERIFY_IP',
  tokenIp: 'RATE_LIMIT_TOKEN_IP',
  preview: 'RATE_LIMIT_PREVIEW',
  exportCreate: 'RATE_LIMIT_EXPORT_CREATE',
  exportResume: 'RATE_LIMIT_EXPORT_RESUME',
  exportEnrich: 'RATE_LIMIT_EXPORT_ENRICH',
  dncWrite: 'RATE_LIMIT_DNC_WRITE',
  apiKey: 'RATE_LIMIT_API',
  apiUser: 'RATE_LIMIT_API_USER',
  apiAuthFailIp: 'RATE_LIMIT_API_AUTH_FAIL_IP',
  apiKeyCreate: 'RATE_LIMIT_API_KEY_CREATE',
  webhookSend: 'RATE_LIMIT_WEBHOOK_SEND',
  teamInvite: 'RATE_LIMIT_TEAM_INVITE',
  crmPush: 'RATE_LIMIT_CRM_PUSH',
  crmConnect: 'RATE_LIMIT_CRM_CONNECT',
  listUpload: 'RATE_LIMIT_LIST_UPLOAD',
} as const satisfies Record<string, keyof Env>

export type LimitName = keyof typeof RATE_LIMITS

/**
 * Limits a flood can hit hundreds of times a second: once over, the key is also refused from this process's memory
 * until its window (or block) ends, so a refusal costs no database round trip (rate-limiter-flexible's
 * inMemoryBlockOnConsumed). Other instances learn it on their own first refusal.
 */
const BLOCKED_IN_MEMORY: ReadonlySet<LimitName> = new Set(['apiKey', 'apiUser', 'apiAuthFailIp'])

/**
 * Budgets of things made (exports created, previews run): a request the command refused (plan, credits, input) made
 * nothing and gives its point back. The other command limits guard against repeated attempts — a 0-credit account
 * resuming an export 20 times at once is refused every time, and each attempt must count, or the guard never holds.
 */
export const REFUNDED_WHEN_REFUSED: ReadonlySet<LimitName> = new Set(['exportCreate', 'preview', 'crmPush', 'listUpload'])

export interface LimitSpec {
  points: number
  durationSeconds: number
  blockSeconds: number
}

const SPEC = /^\s*(\d+)\s*\/\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/

/** "points/seconds[/blockSeconds]"; throws on anything else so a typo cannot disable a limit. */
export function parseLimit(text: string, name = 'rate limit'): LimitSpec {
  const match = SPEC.exec(text)
  const [points, durationSeconds, blockSeconds] = match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : []
  if (!match || !points || !durationSeconds) throw new Error(`${name} must look like "points/seconds[/blockSeconds]" with positive numbers, got "${text}"`)
  return { points, durationSeconds, blockSeconds: blockSeconds! }
}

export function limitSpec(name: LimitName, config: Env = validateEnv()): LimitSpec {
  const variable = RATE_LIMITS[name]
  return parseLimit(config[variable], variable)
}

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number }

/** A counted attempt with the counter's state, for the RateLimit-* answer headers. */
export interface MeteredOutcome {
  ok: boolean
  limit: number
  remaining: number
  /** Seconds until the window (or the block) ends. */
  resetSeconds: number
}

/** Thrown when the counters cannot be read (Postgres down): callers refuse rather than let requests through. */
export class RateLimitUnavailable extends Error {
  constructor(cause: unknown) {
    super('rate limits unavailable', { cause })
    this.name = 'RateLimitUnavailable'
  }
}

export interface RateLimiter {
  /** Counts one attempt; refused once the limit is reached (and while blocked). */
  consume(name: LimitName, key: string): Promise<LimitOutcome>
  /** consume(), with what is left of the limit and when it resets. */
  consumeMetered(name: LimitName, key: string): Promise<MeteredOutcome>
  /** Whether the key is currently over its limit, without counting (for failure-only limits). */
  check(name: LimitName, key: string): Promise<LimitOutcome>
  /**
   * Seconds left of a refusal this process remembers (limits blocked in memory), else 0: answers without a database
   * round trip, for a refusal that must come before any other work.
   */
  blockedSeconds(name: LimitName, key: string): number
  /** Gives back one point consume() took, for an attempt that turned out not to count (a successful sign-in). */
  reward(name: LimitName, key: string): Promise<void>
  /** Forgets the key (e.g. an account's failures after a successful sign-in). */
  reset(name: LimitName, key: string): Promise<void>
}

/**
 * Limits counted in `pool`'s database; limits are read from `config` when first used. `namespace`
 * keeps two counters of the same name apart (the app's and the local auth server's).
 */
export function createRateLimiter(pool: pg.Pool, config?: Env, namespace = 'app'): RateLimiter {
  const limiters = new Map<LimitName, { limiter: RateLimiterPostgres; spec: LimitSpec }>()
  const get = (name: LimitName) => {
    let entry = limiters.get(name)
    if (!entry) {
      // Without `env`, the configuration as it is at first use (tests set limits after start-up).
      const spec = limitSpec(name, config ?? validateEnv())
      const limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true, // by supabase/migrations
        clearExpiredByTimeout: false,
        keyPrefix: `${namespace}:${name}`,
        points: spec.points,
        duration: spec.durationSeconds,
        blockDuration: spec.blockSeconds,
        ...(BLOCKED_IN_MEMORY.has(name) ? { inMemoryBlockOnConsumed: spec.points } : {}),
      })
      entry = { limiter, spec }
      limiters.set(name, entry)
    }
    return entry
  }
  const refusal = (res: RateLimiterRes): LimitOutcome => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) })
  return {
    async consume(name, key) {
      try {
        await get(name).limiter.consume(digest(key))
        return { ok: true }
      } catch (error) {
        if (error instanceof RateLimiterRes) return countedRefusal(name, refusal(error))
        throw new RateLimitUnavailable(error)
      }
    },
    async consumeMetered(name, key) {
      const { limiter, spec } = get(name)
      const metered = (res: RateLimiterRes, ok: boolean): MeteredOutcome => ({
        ok,
        limit: spec.points,
        remaining: Math.max(0, res.remainingPoints),
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      })
      try {
        return metered(await limiter.consume(digest(key)), true)
      } catch (error) {
        if (error instanceof RateLimiterRes) return countedRefusal(name, metered(error, false))
        throw new RateLimitUnavailable(error)
      }
    },
    async check(name, key) {
      const { limiter, spec } = get(name)
      let res: RateLimiterRes | null
      try {
        res = await limiter.get(digest(key))
      } catch (error) {
        throw new RateLimitUnavailable(error)
      }
      return res && res.consumedPoints >= spec.points ? countedRefusal(name, refusal(res)) : { ok: true }
    },
    blockedSeconds: (name, key) => (BLOCKED_IN_MEMORY.has(name) ? memoryBlockSeconds(get(name).limiter, key) : 0),
    async reward(name, key) {
      try {
        await get(name).limiter.reward(digest(key))
      } catch (error) {
        throw new RateLimitUnavailable(error)
      }
    },
    async reset(name, key) {
      try {
        await get(name).limiter.delete(digest(key))
      } catch (error) {
        throw new RateLimitUnavailable(error)
      }
    },
  }
}

/** Seconds left of the key's refusal in this process's memory (inMemoryBlockOnConsumed), else 0. */
function memoryBlockSeconds(limiter: RateLimiterPostgres, key: string): number {
  // Public in rate-limiter-flexible's code (RateLimiterStoreAbstract), missing from its types.
  const memory = limiter as unknown as { getInMemoryBlockMsBeforeExpire(rlKey: string): number }
  const ms = memory.getInMemoryBlockMsBeforeExpire(limiter.getKey(digest(key)))
  return ms > 0 ? Math.ceil(ms / 1000) : 0
}

/** `outcome`, a refusal by `name`, counted in the metrics. */
function countedRefusal<T>(name: LimitName, outcome: T): T {
  countRateLimitRefusal(name)
  return outcome
}

/** Counters are keyed by a digest: emails and addresses are not kept in clear. */
function digest(key: string) {
  return crypto.createHash('sha256').update(key.trim().toLowerCase()).digest('base64url')
}
