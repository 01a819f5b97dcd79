// Rate limits: counted in Postgres (shared by every app instance), refusing with Retry-After,
// on the local auth server too; and password hashing kept off the event loop.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { hashPassword, passwordWorkDoneInThreads, verifyPassword } from '#server/auth-server/passwords.ts'
import { startAuthServer } from '#server/auth-server/index.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createRateLimiter, limitSpec, parseLimit, RateLimitUnavailable } from '#app/.server/rate-limiter.ts'

const databaseUrl = inject('databaseUrl')
const pools: pg.Pool[] = []
const newPool = (url = databaseUrl) => {
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 2_000 })
  pool.on('error', () => {})
  pools.push(pool)
  return pool
}
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
})
const unique = (label: string) => `${label}-${crypto.randomUUID()}`

describe('limit specs', () => {
  test('"points/seconds[/blockSeconds]", strict defaults, typos refused', () => {
    expect(parseLimit('5/900/900')).toEqual({ points: 5, durationSeconds: 900, blockSeconds: 900 })
    expect(parseLimit(' 60 / 60 ')).toEqual({ points: 60, durationSeconds: 60, blockSeconds: 0 })
    for (const bad of ['', 'five/60', '0/60', '5/0', '5', '5/60/x', '-1/60']) expect(() => parseLimit(bad)).toThrow(/points\/seconds/)
    expect(limitSpec('signinAccount', parseEnv({}))).toEqual({ points: 5, durationSeconds: 900, blockSeconds: 900 })
    expect(limitSpec('signupIp', parseEnv({ RATE_LIMIT_SIGNUP_IP: '1000/60' }))).toMatchObject({ points: 1000 })
    // Raising one limit leaves the others strict.
    expect(limitSpec('signinIp', parseEnv({ RATE_LIMIT_SIGNUP_IP: '1000/60' }))).toMatchObject({ points: 30 })
  })
})

describe('counters in Postgres', () => {
  test('the limit is shared by two app instances, refuses with a retry delay, then blocks', async () => {
    const env = parseEnv({ RATE_LIMIT_SIGNIN_ACCOUNT: '3/60/120' })
    const first = createRateLimiter(newPool(), env)
    const second = createRateLimiter(newPool(), env) // another app instance, its own pool
    const key = unique('ada@example.com')
    expect(await first.consume('signinAccount', key)).toEqual({ ok: true })
    expect(await second.consume('signinAccount', key)).toEqual({ ok: true })
    expect(await first.check('signinAccount', key)).toEqual({ ok: true })
    expect(await second.consume('signinAccount', key)).toEqual({ ok: true })
    // Three failures: both instances now refuse, before any password is checked.
    const refused = await first.check('signinAccount', key)
    expect(refused).toMatchObject({ ok: false })
    expect(await second.consume('signinAccount', key)).toMatchObject({ ok: false })
    // Exceeding it blocks for the block duration (the lockout window).
    const blocked = await first.check('signinAccount', key)
    expect(blocked.ok).toBe(false)
    if (!blocked.ok) expect(blocked.retryAfterSeconds).toBeGreaterThan(60)
    // Another account is not affected.
    expect(await first.check('signinAccount', unique('other@example.com'))).toEqual({ ok: true })
    await first.reset('signinAccount', key)
    expect(await second.check('signinAccount', key)).toEqual({ ok: true })
  })

  test('keys are stored as digests, never as the email or address', async () => {
    const limiter = createRateLimiter(newPool(), parseEnv({ RATE_LIMIT_FORGOT_EMAIL: '3/60' }))
    const email = `${unique('private')}@example.com`
    await limiter.consume('forgotEmail', email)
    const { rows } = await newPool().query<{ key: string }>("select key from public.rate_limits where key like 'app:forgotEmail%'")
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((row) => row.key.includes(email) || row.key.includes('private'))).toBe(false)
  })

  test('the API roles cannot read or reset counters (RLS, no policy)', async () => {
    const pool = newPool()
    const client = await pool.connect()
    try {
      await client.query('begin')
      await client.query('set local role authenticated')
      await expect(client.query('delete from public.rate_limits')).rejects.toThrow(/permission denied/)
      await client.query('rollback')
    } finally {
      client.release()
    }
  })

  test('unreachable counters refuse (RateLimitUnavailable) rather than wave requests through', async () => {
    const limiter = createRateLimiter(newPool(databaseUrl.replace(/:(\d+)\//, ':1/')))
    await expect(limiter.consume('signupIp', '203.0.113.9')).rejects.toBeInstanceOf(RateLimitUnavailable)
  })
})

describe('local auth server', () => {
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-limits-'))
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }))

  test('/verify is limited per client address (X-Forwarded-For from the app), like GoTrue', async () => {
    process.env.RATE_LIMIT_VERIFY_IP = '3/3600'
    const auth = await startAuthServer({ databaseUrl, siteUrl: 'http://127.0.0.1:5999', keyFile: path.join(keyDir, 'key.json') })
    try {
      const verify = (ip: string) =>
        fetch(`${auth.url}/auth/v1/verify`, {
          method: 'POST',
          headers: { apikey: auth.anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
          body: JSON.stringify({ type: 'recovery', token_hash: 'x'.repeat(43) }),
        })
      const ip = `198.51.100.${crypto.randomInt(1, 254)}`
      for (let i = 0; i < 3; i++) expect((await verify(ip)).status).toBe(403) // otp_expired: counted, not refused
      const refused = await verify(ip)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await refused.json()).toMatchObject({ code: 'over_request_rate_limit' })
      // Another client is not affected.
      expect((await verify(`203.0.113.${crypto.randomInt(1, 254)}`)).status).toBe(403)
    } finally {
      delete process.env.RATE_LIMIT_VERIFY_IP
      await auth.stop()
    }
  })

  test('sign-in against an unreachable database says "unavailable" (503), not "invalid credentials"', async () => {
    const auth = await startAuthServer({ databaseUrl: databaseUrl.replace(/:(\d+)\//, ':1/'), siteUrl: 'http://127.0.0.1:5999', keyFile: path.join(keyDir, 'key.json') })
    try {
      const client = createClient(auth.url, auth.anonKey, { auth: { persistSession: false, autoRefreshToken: false } })
      const { error } = await client.auth.signInWithPassword({ email: 'someone@example.com', password: 'whatever-1' })
      expect(error?.status).toBe(503)
      const raw = await fetch(`${auth.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: auth.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', password: 'whatever-1' }),
      })
      expect(raw.status).toBe(503)
      expect(await raw.json()).toMatchObject({ code: 'service_unavailable' })
    } finally {
      await auth.stop()
    }
  })
})

describe('password hashing', () => {
  test('runs off the event loop: every hash and compare is done by the worker threads', async () => {
    const hash = await hashPassword('warm-up-password') // starts the worker thread
    const before = passwordWorkDoneInThreads()
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? hashPassword(`password-${i}`) : verifyPassword('warm-up-password', hash))))
    expect(results.filter((r) => r === true)).toHaveLength(6)
    expect(results.filter((r) => typeof r === 'string' && r.startsWith('$2'))).toHaveLength(6)
    // Counted by the thread pool, not timed: a timing bound fails on a loaded machine and proves less.
    expect(passwordWorkDoneInThreads() - before).toBe(12)
    expect(await verifyPassword('wrong', hash)).toBe(false)
    expect(await verifyPassword('anything', null)).toBe(false)
  })
})
