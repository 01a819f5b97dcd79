// A database that cannot answer in time gives the user a 503 ("try again in a moment"), never a hang.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { isRouteErrorResponse } from 'react-router'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb, withUser } from '#app/.server/db.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'

const claims = () => ({ sub: randomUUID(), role: 'authenticated' })

/** What withUser threw, as React Router would see it. */
async function thrown(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error as { type?: string; init?: { status?: number; headers?: Record<string, string> }; data?: unknown }
  }
  throw new Error('expected a rejection')
}

describe('database timeouts', () => {
  beforeAll(async () => {
    await closeDb()
    process.env.DATABASE_URL = inject('databaseUrl')
    process.env.DB_STATEMENT_TIMEOUT_MS = '300'
  })
  afterAll(async () => {
    delete process.env.DB_STATEMENT_TIMEOUT_MS
    delete process.env.DB_CONNECT_TIMEOUT_MS
    await closeDb()
  })

  test('a statement over the timeout is cancelled and answered 503 with Retry-After', async () => {
    const started = Date.now()
    const error = await thrown(withUser(claims(), (trx) => sql`select pg_sleep(5)`.execute(trx)))
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(error.type).toBe('DataWithResponseInit')
    expect(error.init?.status).toBe(503)
    expect(error.init?.headers).toMatchObject({ 'Retry-After': '5' })
  })

  test('the pool still works after a cancelled statement', async () => {
    const rows = await withUser(claims(), (trx) => sql<{ one: number }>`select 1 as one`.execute(trx))
    expect(rows.rows[0]?.one).toBe(1)
  })

  test('an unreachable server is a 503 after the connection timeout, not a hang', async () => {
    await closeDb()
    // A port nothing listens on: refused at once. (A paused server is covered by the connect timeout.)
    process.env.DATABASE_URL = inject('databaseUrl').replace(/:(\d+)\//, ':1/')
    process.env.DB_CONNECT_TIMEOUT_MS = '500'
    const error = await thrown(withUser(claims(), (trx) => sql`select 1`.execute(trx)))
    expect(error.init?.status).toBe(503)
    await closeDb()
    process.env.DATABASE_URL = inject('databaseUrl')
  })

  test('bugs are not disguised as unavailability', async () => {
    const error = await thrown(withUser(claims(), (trx) => sql`select * from no_such_table`.execute(trx)))
    expect(isRouteErrorResponse(error)).toBe(false)
    expect(isDatabaseUnavailable(error)).toBe(false)
    expect(String((error as unknown as Error).message)).toMatch(/no_such_table/)
  })
})
