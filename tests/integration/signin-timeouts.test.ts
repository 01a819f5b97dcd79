// Sign-in with a frozen database (issue 18, item 13): it answers 503 within the bound pages keep
// (db-timeouts.test.ts), whichever hop is stuck — the app's own queries or the auth server's.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { databaseAnswerBoundMs } from '#app/.server/db-timeouts.ts'
import { signIn } from '#app/.server/sign-in.ts'
import { startAuthServer, type AuthServer } from '#server/auth-server/index.ts'
import { freezableProxy } from '#tests/support/freezable-proxy.ts'

const databaseUrl = inject('databaseUrl')
const PASSWORD = 'Correct-Horse-42!'
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-signin-timeouts-'))
/** Time to answer once the deadline passed, on a busy machine. */
const SLACK_MS = 1_000

const stops: Array<() => Promise<void>> = []
beforeAll(() => {
  process.env.DB_STATEMENT_TIMEOUT_MS = '300'
  process.env.DB_CONNECT_TIMEOUT_MS = '300'
  process.env.RATE_LIMIT_TOKEN_IP = '100000/60'
})
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
})
afterAll(async () => {
  delete process.env.DB_STATEMENT_TIMEOUT_MS
  delete process.env.DB_CONNECT_TIMEOUT_MS
  process.env.DATABASE_URL = databaseUrl
  await closeDb()
  fs.rmSync(keyDir, { recursive: true, force: true })
})

/** The app and the auth server, each reaching the database through its own freezable relay; a user signed in once, so both pools hold open connections. */
async function stack() {
  const appDb = await freezableProxy(databaseUrl)
  const authDb = await freezableProxy(databaseUrl)
  stops.push(appDb.close, authDb.close)
  await closeDb()
  process.env.DATABASE_URL = appDb.url
  stops.push(closeDb)
  const auth: AuthServer = await startAuthServer({ databaseUrl: authDb.url, siteUrl: 'http://127.0.0.1:5999', keyFile: path.join(keyDir, 'key.json') })
  stops.push(auth.stop)
  const ip = `198.51.100.${crypto.randomInt(1, 255)}`
  const supabase = () => createClient(auth.url, auth.anonKey, { auth: { persistSession: false, autoRefreshToken: false }, global: { headers: { 'X-Forwarded-For': ip } } })
  const email = `frozen-${crypto.randomUUID()}@example.com`
  expect((await supabase().auth.signUp({ email, password: PASSWORD })).error).toBeNull()
  const attempt = () => signIn(supabase(), { email, password: PASSWORD, ip })
  expect(await attempt()).toEqual({ ok: true })
  return { appDb, authDb, auth, attempt }
}

async function timed<T>(work: () => Promise<T>) {
  const started = Date.now()
  const result = await work()
  return { result, ms: Date.now() - started }
}

describe('sign-in against a frozen database', () => {
  test('the bound is the page one: a query that never answers, or a connection that never opens', () => {
    expect(databaseAnswerBoundMs()).toBe(2_300)
  })

  test("the app's database frozen: 503 \"unavailable\" within the bound", async () => {
    const { appDb, attempt } = await stack()
    appDb.freeze()
    const { result, ms } = await timed(attempt)
    expect(result).toEqual({ ok: false, status: 503, messageKey: 'auth.errors.unavailable' })
    expect(ms).toBeLessThan(databaseAnswerBoundMs() + SLACK_MS)
  })

  test("the auth server's database frozen: the sign-in still answers 503 within the bound, and the auth server itself does too", async () => {
    const { authDb, auth, attempt } = await stack()
    authDb.freeze()
    const { result, ms } = await timed(attempt)
    expect(result).toEqual({ ok: false, status: 503, messageKey: 'auth.errors.unavailable' })
    expect(ms).toBeLessThan(databaseAnswerBoundMs() + SLACK_MS)

    const direct = await timed(() =>
      fetch(`${auth.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: auth.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', password: PASSWORD }),
      }),
    )
    expect(direct.result.status).toBe(503)
    expect(await direct.result.json()).toMatchObject({ code: 'service_unavailable' })
    expect(direct.ms).toBeLessThan(databaseAnswerBoundMs() + SLACK_MS)
  })
})
