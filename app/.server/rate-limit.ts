import type pg from 'pg'
import { data, type RouterContextProvider } from 'react-router'
import { createRateLimiter, RateLimitUnavailable, type LimitName, type LimitOutcome, type RateLimiter } from '#server/rate-limit.ts'
import { getPool } from './db.ts'
import { getInstance } from './i18n.ts'

let current: { pool: pg.Pool; limiter: RateLimiter } | undefined

/** The app's limiter, on the app's pool (a new one after closeDb()). */
function rateLimiter(): RateLimiter {
  const pool = getPool()
  if (current?.pool !== pool) current = { pool, limiter: createRateLimiter(pool) }
  return current.limiter
}

/** Counters that cannot be read refuse the request (503) rather than wave it through. */
async function guarded<T>(work: (limiter: RateLimiter) => Promise<T>): Promise<T> {
  try {
    return await work(rateLimiter())
  } catch (error) {
    if (error instanceof RateLimitUnavailable) throw data({ error: 'service_unavailable' }, { status: 503, headers: { 'Retry-After': '5' } })
    throw error
  }
}

export const consumeLimit = (name: LimitName, key: string) => guarded((limiter) => limiter.consume(name, key))
export const checkLimit = (name: LimitName, key: string) => guarded((limiter) => limiter.check(name, key))
export const resetLimit = (name: LimitName, key: string) => guarded((limiter) => limiter.reset(name, key))

/** The first refusal among `outcomes`, waiting the longest. */
export function refused(...outcomes: LimitOutcome[]): Extract<LimitOutcome, { ok: false }> | undefined {
  return outcomes
    .filter((outcome): outcome is Extract<LimitOutcome, { ok: false }> => !outcome.ok)
    .sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0]
}

/** The localized "try again in N minutes" and the Retry-After header of a refusal. */
export function tooManyRequests(context: Readonly<RouterContextProvider>, refusal: { retryAfterSeconds: number }) {
  const t = getInstance(context).t
  return {
    message: t('rateLimit.tooMany', { count: Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60)) }),
    headers: { 'Retry-After': String(refusal.retryAfterSeconds) },
  }
}

/** For JSON routes and actions without a form to re-render: throws 429 `{error, message}` when over the limit. */
export async function enforceLimit(context: Readonly<RouterContextProvider>, name: LimitName, key: string): Promise<void> {
  const outcome = await consumeLimit(name, key)
  if (outcome.ok) return
  const { message, headers } = tooManyRequests(context, outcome)
  throw data({ error: 'rate_limited', message }, { status: 429, headers })
}
