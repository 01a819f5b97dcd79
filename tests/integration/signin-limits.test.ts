// Sign-in limits hold whatever the concurrency: attempts are counted before any password is hashed
// (issue 18, item 2), and one address's flood gets a bounded, fair share of the hashing. Hashes are
// counted by the worker threads of the auth server started here, in this process.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { createRateLimiter } from '#app/.server/rate-limiter.ts'
import { signIn, type SignInOutcome } from '#app/.server/sign-in.ts'
import { startAuthServer, type AuthServer } from '#server/auth-server/index.ts'
import { passwordQueueCapacity, passwordWorkDoneInThreads } from '#server/auth-server/passwords.ts'

const databaseUrl = inject('databaseUrl')
const PASSWORD = 'Correct-Horse-42!'
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-signin-'))
let auth: AuthServer

beforeAll(async () => {
  await closeDb()
  process.env.DATABASE_URL = databaseUrl
  // Only the sign-in limits are under test here; the auth server's own per-address limit is checked in rate-limits.test.ts.
  process.env.RATE_LIMIT_TOKEN_IP = '100000/60'
  auth = await startAuthServer({ databaseUrl, siteUrl: 'http://127.0.0.1:5999', keyFile: path.join(keyDir, 'key.json') })
})
afterAll(async () => {
  await auth.stop()
  await closeDb()
  fs.rmSync(keyDir, { recursive: true, force: true })
})

const unique = (label: string) => `${label}-${crypto.randomUUID()}@example.com`
/** A documentation address (RFC 5737) of its own per call, so tests never share a per-address counter. */
const newIp = () => `198.51.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`
/** The app's request client: it forwards the client's address to the auth server, as supabaseMiddleware does. */
const clientFor = (ip: string) =>
  createClient(auth.url, auth.anonKey, { auth: { persistSession: false, autoRefreshToken: false }, global: { headers: { 'X-Forwarded-For': ip } } })
const attempt = (email: string, password: string, ip: string) => signIn(clientFor(ip), { email, password, ip })

async function newUser() {
  const email = unique('signin')
  const { error } = await clientFor(newIp()).auth.signUp({ email, password: PASSWORD })
  expect(error).toBeNull()
  return email
}

const wrongPassword = (o: SignInOutcome) => !o.ok && 'status' in o && o.status === 400
const overLimit = (o: SignInOutcome) => !o.ok && 'refusal' in o && !o.busy
const busy = (o: SignInOutcome) => !o.ok && 'refusal' in o && o.busy === true

describe('sign-in attempts are counted before the password is checked', () => {
  test('40 simultaneous guesses on one account (from 40 addresses): 5 hashed at most, then the right password is locked out too', async () => {
    const email = await newUser()
    const before = passwordWorkDoneInThreads()
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(email, `wrong-password-${i}`, newIp())))
    const hashed = passwordWorkDoneInThreads() - before
    expect(hashed).toBeGreaterThan(0)
    expect(hashed).toBeLessThanOrEqual(5)
    // Every hashed guess was answered "invalid credentials"; every other one was refused without a hash.
    expect(outcomes.filter(wrongPassword)).toHaveLength(hashed)
    expect(outcomes.filter(overLimit)).toHaveLength(40 - hashed)

    const right = await attempt(email, PASSWORD, newIp())
    expect(right).toMatchObject({ ok: false, refusal: { ok: false } })
    if (!right.ok && 'refusal' in right) expect(right.refusal.retryAfterSeconds).toBeGreaterThan(60)
    expect(passwordWorkDoneInThreads() - before).toBe(hashed)
  })

  test('150 sign-ins from one address at once: never more than 30 passwords hashed', { timeout: 90_000 }, async () => {
    const ip = newIp()
    const before = passwordWorkDoneInThreads()
    let pending = Array.from({ length: 150 }, () => unique('nobody'))
    let invalid = 0
    let limited = 0
    for (let round = 0; pending.length; round++) {
      const outcomes = await Promise.all(pending.map((email) => attempt(email, 'wrong-password', ip)))
      // The address's burst is refused at once beyond 1 running + 2 waiting: those are sent again, until
      // every one of the 150 has either been checked or refused by the limit.
      if (round === 0) expect(outcomes.filter(busy).length).toBeGreaterThanOrEqual(147)
      invalid += outcomes.filter(wrongPassword).length
      limited += outcomes.filter(overLimit).length
      pending = pending.filter((_, i) => busy(outcomes[i]!))
    }
    const hashed = passwordWorkDoneInThreads() - before
    expect(hashed).toBe(invalid)
    expect(hashed).toBeLessThanOrEqual(30)
    expect(invalid + limited).toBe(150)
  })

  test('the counters themselves: 150 simultaneous attempts on a 30-point limit admit exactly 30', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    try {
      const limiter = createRateLimiter(pool)
      const key = newIp()
      const outcomes = await Promise.all(Array.from({ length: 150 }, () => limiter.consume('signinIp', key)))
      expect(outcomes.filter((o) => o.ok)).toHaveLength(30)
    } finally {
      await pool.end()
    }
  })

  test('a successful sign-in gives its points back: it is not a failure', async () => {
    const email = await newUser()
    const ip = newIp()
    for (let i = 0; i < 4; i++) expect(wrongPassword(await attempt(email, 'wrong-password', ip))).toBe(true)
    expect(await attempt(email, PASSWORD, ip)).toEqual({ ok: true })
    // The account's four failures are forgotten: five more wrong guesses are still checked.
    for (let i = 0; i < 5; i++) expect(wrongPassword(await attempt(email, 'wrong-password', ip))).toBe(true)
    expect(overLimit(await attempt(email, PASSWORD, ip))).toBe(true)
  })
})

describe('one address flooding does not starve another', () => {
  test('while 150 sign-ins from A arrive at once, B signs in; A gets 429s and only 3 of its passwords reach the hashing', async () => {
    const email = await newUser()
    const before = passwordWorkDoneInThreads()
    const ipA = newIp()
    const flood = Promise.all(Array.from({ length: 150 }, () => attempt(unique('flood'), 'wrong-password', ipA)))
    const b = await attempt(email, PASSWORD, newIp())
    const hashedByBTime = passwordWorkDoneInThreads() - before
    const a = await flood
    expect(b).toEqual({ ok: true })
    // B's own hash plus at most A's three (one running, two waiting): nothing of A's burst queued ahead of B.
    expect(hashedByBTime).toBeLessThanOrEqual(4)
    expect(a.filter(busy).length).toBeGreaterThanOrEqual(147)
    expect(a.filter(wrongPassword).length).toBeLessThanOrEqual(3)
  })
})

describe("the local auth server's password grant", () => {
  const grant = (email: string, password: string, ip: string) =>
    fetch(`${auth.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: auth.anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({ email, password }),
    })

  test("one client's burst: one hash at a time and two waiting, the surplus refused at once (429, Retry-After) and never hashed; another client signs in meanwhile", async () => {
    const email = await newUser()
    const before = passwordWorkDoneInThreads()
    const ipA = newIp()
    const burst = Promise.all(Array.from({ length: 20 }, () => grant(unique('nobody'), 'wrong-password', ipA)))
    const other = await grant(email, PASSWORD, newIp())
    const answers = await burst
    expect(other.status).toBe(200)
    const refused = answers.filter((r) => r.status === 429)
    // The grants reach the hashing one database lookup apart, so a hash may finish before the last arrive:
    // 17 refusals when they all arrive at once, a few less on a busy machine — never none, as before.
    expect(refused.length).toBeGreaterThanOrEqual(10)
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused[0]!.json()).toMatchObject({ code: 'over_request_rate_limit' })
    expect(answers.every((r) => r.status === 400 || r.status === 429)).toBe(true)
    // Refused ones were never hashed: the threads did the other client's sign-in and the burst's admitted ones only.
    expect(passwordWorkDoneInThreads() - before).toBe(1 + answers.length - refused.length)
  })

  test('the threads queue is bounded: past it, grants are refused at once (429), never a 5xx', { timeout: 60_000 }, async () => {
    const { threads, maxQueue } = passwordQueueCapacity()
    const count = 2 * (threads + maxQueue)
    const answers = await Promise.all(Array.from({ length: count }, () => grant(unique('nobody'), 'wrong-password', newIp())))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true)
  })
})
