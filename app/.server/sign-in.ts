/**
 * The sign-in's server side: limits counted before the password is checked, a fair share of the hashing
 * per client address, and one deadline for the whole chain (app database → auth server → its database).
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { authErrorKey } from '#app/domain/auth.ts'
import { databaseAnswerBoundMs } from './db-timeouts.ts'
import { keyedQueue, QueueFull } from './keyed-queue.ts'
import { consumeLimit, refused, resetLimit, rewardLimit, type AppLimitOutcome } from './rate-limit.ts'

export type SignInOutcome =
  | { ok: true }
  /** 429: over a limit, or (`busy`) this address already has sign-ins running and waiting. */
  | { ok: false; refusal: { ok: false; retryAfterSeconds: number }; busy?: true }
  /** 400 wrong credentials (or another refusal of the auth service), 503 the service or its database cannot answer. */
  | { ok: false; status: 400 | 503; messageKey: string }

/** One sign-in of an address runs at a time and two wait behind it; a surplus is refused at once. */
const inFlight = keyedQueue({ concurrency: 1, maxWaiting: 2 })

/** Seconds a refused burst is told to wait: the address's own sign-ins are over well before. */
const BUSY_RETRY_AFTER_SECONDS = 2

const unavailable = { ok: false, status: 503, messageKey: 'auth.errors.unavailable' } as const
const busy = { ok: false, refusal: { ok: false, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS }, busy: true } as const

class DeadlineExceeded extends Error {}

export interface Credentials {
  email: string
  password: string
  /** The client's address (rate limits and the fair share); `supabase` forwards the same one to the auth service. */
  ip: string
}

/**
 * Signs in through `supabase` (the request's client: it sets the session cookies). Answers within the bound
 * pages keep when the database cannot answer (databaseAnswerBoundMs), however the time splits between the
 * app's queries and the auth server's.
 */
export async function signIn(supabase: SupabaseClient, credentials: Credentials): Promise<SignInOutcome> {
  const deadline = AbortSignal.timeout(databaseAnswerBoundMs())
  const within = <T>(promise: Promise<T>) => withinDeadline(promise, deadline)
  try {
    return await inFlight.run(credentials.ip, () => attempt(supabase, credentials, within))
  } catch (error) {
    if (error instanceof QueueFull) return busy
    if (error instanceof DeadlineExceeded) return unavailable
    throw error
  }
}

async function attempt(supabase: SupabaseClient, { email, password, ip }: Credentials, within: <T>(promise: Promise<T>) => Promise<T>): Promise<SignInOutcome> {
  const account = email.toLowerCase()
  // Counted before the password is checked, each in one atomic statement: whatever arrives at once, no
  // more attempts than the limit reach the hashing, and a locked account refuses the right password too.
  const counted = await within(Promise.all([consumeLimit('signinAccount', account), consumeLimit('signinIp', ip)]))
  const refusal = refused(...counted)
  if (refusal) {
    await within(giveBack(account, ip, counted)).catch(() => {})
    return 'unavailable' in refusal ? unavailable : { ok: false, refusal }
  }
  const { error } = await within(supabase.auth.signInWithPassword({ email, password }))
  if (!error) {
    // Signed in (the cookies are set): the account's failures are forgotten and the address's point given
    // back; bookkeeping that cannot hold the user up, so a slow database skips it.
    await within(Promise.all([resetLimit('signinAccount', account), rewardLimit('signinIp', ip)])).catch(() => {})
    return { ok: true }
  }
  // Only a wrong password counts as a failure; a refusal or an outage checked none.
  if (error.code !== 'invalid_credentials') await within(giveBack(account, ip, counted)).catch(() => {})
  if (error.status === 429) return busy
  const messageKey = authErrorKey(error.code, error.status)
  return messageKey === 'auth.errors.unavailable' ? unavailable : { ok: false, status: 400, messageKey }
}

/** Gives back the points this attempt took from the limits that admitted it (never a refused one: that would lift a lockout). */
async function giveBack(account: string, ip: string, [byAccount, byIp]: AppLimitOutcome[]) {
  await Promise.all([byAccount?.ok ? rewardLimit('signinAccount', account) : null, byIp?.ok ? rewardLimit('signinIp', ip) : null])
}

function withinDeadline<T>(promise: Promise<T>, deadline: AbortSignal): Promise<T> {
  if (deadline.aborted) return Promise.reject(new DeadlineExceeded())
  return new Promise<T>((resolve, reject) => {
    const expire = () => reject(new DeadlineExceeded())
    deadline.addEventListener('abort', expire, { once: true })
    promise.then(resolve, reject).finally(() => deadline.removeEventListener('abort', expire))
  })
}
