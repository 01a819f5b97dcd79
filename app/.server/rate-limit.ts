import { setTimeout as sleep } from 'node:timers/promises'
import type { Submission } from '@conform-to/react'
import type pg from 'pg'
import { data, type RouterContextProvider } from 'react-router'
import { createRateLimiter, RateLimitUnavailable, type LimitName, type LimitOutcome, type MeteredOutcome, type RateLimiter } from './rate-limiter.ts'
import { getPool } from './db.ts'
import { getInstance } from './i18n.ts'

let current: { pool: pg.Pool; limiter: RateLimiter } | undefined

/** The app's limiter, on the app's pool (a new one after closeDb()). */
function rateLimiter(): RateLimiter {
  const pool = getPool()
  if (current?.pool !== pool) current = { pool, limiter: createRateLimiter(pool) }
  return current.limiter
}

/** Over the limit, or the counters could not be read (then the request is refused too, never waved through). */
export type Refusal = Extract<LimitOutcome, { ok: false }> | { ok: false; unavailable: true }
export type AppLimitOutcome = { ok: true } | Refusal

async function guarded(work: (limiter: RateLimiter) => Promise<LimitOutcome>): Promise<AppLimitOutcome> {
  try {
    return await work(rateLimiter())
  } catch (error) {
    if (error instanceof RateLimitUnavailable) return { ok: false, unavailable: true }
    throw error
  }
}

export const consumeLimit = (name: LimitName, key: string) => guarded((limiter) => limiter.consume(name, key))
/** Gives back a point consumeLimit() took (an attempt that did not fail after all). */
export const rewardLimit = (name: LimitName, key: string) =>
  guarded(async (limiter) => {
    await limiter.reward(name, key)
    return { ok: true }
  })
export const resetLimit = (name: LimitName, key: string) =>
  guarded(async (limiter) => {
    await limiter.reset(name, key)
    return { ok: true }
  })

/**
 * Runs `work` within a budget of things made (exports created): counted first, unless the work is a replay that makes
 * nothing new (a known idempotency key), and given back when the work answered a refusal (plan, credits, input) — a
 * refused command made nothing. One mechanism for every door that creates: forms, run-now and the scheduler (the API
 * dispatcher does the same per operation, metering for its RateLimit-* headers).
 */
export async function withinBudget<T>(
  name: LimitName,
  key: string,
  work: () => Promise<T>,
  { replay = false, made }: { replay?: boolean; made: (result: T) => boolean },
): Promise<{ refused: Refusal } | { refused?: undefined; result: T }> {
  if (replay) return { result: await work() }
  const refusal = refused(await consumeLimit(name, key))
  if (refusal) return { refused: refusal }
  const result = await work()
  if (!made(result)) await rewardLimit(name, key)
  return { result }
}

/** The refusal to answer among `outcomes`: unavailability first, then the longest wait. */
export function refused(...outcomes: AppLimitOutcome[]): Refusal | undefined {
  const refusals = outcomes.filter((outcome): outcome is Refusal => !outcome.ok)
  return refusals.find((r) => 'unavailable' in r) ?? refusals.sort((a, b) => retryAfter(b) - retryAfter(a))[0]
}

const retryAfter = (refusal: Refusal) => ('unavailable' in refusal ? 5 : refusal.retryAfterSeconds)

/** Status, localized message and Retry-After of a refusal: 429 "try again in N minutes", or 503. */
export function refusalAnswer(context: Readonly<RouterContextProvider>, refusal: Refusal) {
  const t = getInstance(context).t
  const seconds = retryAfter(refusal)
  const headers = { 'Retry-After': String(seconds) }
  if ('unavailable' in refusal) return { status: 503, error: 'service_unavailable', message: t('auth.errors.unavailable'), headers }
  return { status: 429, error: 'rate_limited', message: t('rateLimit.tooMany', { count: Math.max(1, Math.ceil(seconds / 60)) }), headers }
}

const REFUSAL_PAUSE_MS = 2_000
/** One client's refusals waiting at once per step of a longer pause, and the longest pause. */
const TARPIT_STEP = 8
const TARPIT_MAX_MS = 10_000

/** Refusals of each client (`key`) waiting in refusalPause right now. */
const pausedRefusals = new Map<string, number>()

/** How long a refusal waits when its client already has `paused` refusals waiting: 2 s, longer for a flood. */
export function refusalPauseMs(paused: number): number {
  return Math.min(TARPIT_MAX_MS, REFUSAL_PAUSE_MS * (1 + Math.floor(paused / TARPIT_STEP)))
}

/**
 * Waits before a refusal is answered. A refusal is cheap, so a client looping on a form would otherwise get
 * thousands of answers a second and crowd out every other page; a person never notices the pause. With the
 * client's `key` (its address), the pause grows with that client's refusals already waiting (a tarpit, up to
 * 10 s): a flood that keeps 150 requests in flight is then answered ~15 times a second, each answer being a
 * rendered page, instead of ~75 — its cost stays off other clients' pages and sign-ins.
 */
async function refusalPause(signal?: AbortSignal, key?: string): Promise<void> {
  const paused = key === undefined ? 0 : (pausedRefusals.get(key) ?? 0)
  if (key !== undefined) pausedRefusals.set(key, paused + 1)
  try {
    await sleep(refusalPauseMs(paused), undefined, { signal }).catch(() => {})
  } finally {
    if (key !== undefined) {
      const left = (pausedRefusals.get(key) ?? 1) - 1
      if (left > 0) pausedRefusals.set(key, left)
      else pausedRefusals.delete(key)
    }
  }
}

/**
 * A form refused by a limit (sign-in, sign-up, forgot password): after the client's refusal pause, 429 (or 503) with
 * Retry-After and the form re-rendered with what was typed, its message above it and the password left out.
 */
export async function refusedForm<Intent extends string>(
  { request, context, client }: { request: Request; context: Readonly<RouterContextProvider>; client: string },
  intent: Intent,
  submission: Submission<unknown>,
  refusal: Refusal,
) {
  await refusalPause(request.signal, client)
  const { status, message, headers } = refusalAnswer(context, refusal)
  return data({ intent, result: submission.reply({ formErrors: [message], hideFields: ['password'] }) }, { status, headers })
}

/** For JSON routes and actions without a form to re-render: throws `{error, message}` (429 or 503) when refused. */
export async function enforceLimit(context: Readonly<RouterContextProvider>, name: LimitName, key: string): Promise<void> {
  const refusal = refused(await consumeLimit(name, key))
  if (!refusal) return
  await refusalPause()
  const { status, error, message, headers } = refusalAnswer(context, refusal)
  throw data({ error, message }, { status, headers })
}

/** Counts one request against `name` with the counter's state (null when the counters cannot be read). */
export async function meterLimit(name: LimitName, key: string): Promise<MeteredOutcome | null> {
  try {
    return await rateLimiter().consumeMetered(name, key)
  } catch (error) {
    if (error instanceof RateLimitUnavailable) return null
    throw error
  }
}

/** Seconds a client address is still refused for its failed API keys, from this process's memory (0: not refused). */
export function apiAuthFailureBlockedSeconds(ip: string): number {
  return rateLimiter().blockedSeconds('apiAuthFailIp', ip)
}

/** Counts a failed API key from `ip`; the seconds to wait when that was one too many, else null. */
export async function countApiAuthFailure(ip: string): Promise<number | null> {
  const refusal = refused(await consumeLimit('apiAuthFailIp', ip))
  if (!refusal) return null
  return 'unavailable' in refusal ? 5 : refusal.retryAfterSeconds
}
