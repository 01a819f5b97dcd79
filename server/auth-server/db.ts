import pg from 'pg'
import { databaseTimeouts } from '#app/.server/db-timeouts.ts'

export type { Queryable } from '#app/.server/db.ts'

export function createPool(databaseUrl: string) {
  // The auth server sees little traffic (dev/test only); a handful of connections is plenty
  // and leaves room in Postgres for the app, the worker and the tests.
  // The app's timeouts (DB_STATEMENT_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS): a paused or unreachable
  // database is a 503 within the bound pages keep, never a hung sign-in.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 5, idleTimeoutMillis: 10_000, ...databaseTimeouts() })
  // An idle client dropped by Postgres (e.g. during shutdown) must not crash the process.
  pool.on('error', () => {})
  return pool
}

export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/** Postgres unique_violation, e.g. two sign-ups racing for the same email. */
export function isUniqueViolation(error: unknown) {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
}
