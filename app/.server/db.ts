// Database access (ARCHITECTURE §4): Kysely over a pg Pool.
// - withUser(): every user-facing query. Runs as role `authenticated` with the user's verified JWT
//   claims, exactly like PostgREST, so Postgres row-level security decides what the user can see.
// - adminDb(): the privileged connection for the worker, billing and webhooks. It bypasses RLS.
import { CompiledQuery, Kysely, PostgresDialect, sql, type RawBuilder, type Transaction } from 'kysely'
import pg from 'pg'
import { data } from 'react-router'
import { isDatabaseUnavailable } from './db-errors.ts'
import { databaseTimeouts } from './db-timeouts.ts'
import { env } from './env.server.ts'
import { observePool } from './observability/metrics.ts'
import { isUuid } from '#app/domain/ids.ts'
import type { DB as Database, JsonValue } from './db/schema.generated.ts'

// ---------------------------------------------------------------------------
// Tables: generated from supabase/migrations by `npm run db:types` (app/.server/db/schema.generated.ts),
// with check-constraint unions and jsonb shapes from ./db/column-types.ts. The names below are the ones
// the rest of the app imports.

export type { DB as Database, JsonObject, JsonValue } from './db/schema.generated.ts'
export type * from './db/column-types.ts'

/**
 * Wraps a value as a jsonb parameter. Plain objects can be passed directly (pg JSON-encodes them), but pg
 * turns JS arrays into Postgres array literals, so wrap array values (or anything) in `jsonb(value)`.
 */
export function jsonb<T extends JsonValue>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::jsonb`
}

// ---------------------------------------------------------------------------
// Connection

// Per-pool parsers (not the global pg.types, which pg-boss shares): bigint (counts, ledger ids)
// and numeric (progress_percentage, rating) as JS numbers; both stay far below 2^53 here.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  }) as pg.CustomTypesConfig['getTypeParser'],
}

/** Anything that runs a query: a pool, or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>
}

let pool: pg.Pool | undefined
let db: Kysely<Database> | undefined

export function getPool(): pg.Pool {
  if (!pool) {
    const connectionString = env.DATABASE_URL
    if (!connectionString) {
      throw new Error('DATABASE_URL is not set: it must point at the Postgres database (npm start sets it for the embedded one).')
    }
    pool = new pg.Pool({ connectionString, max: 10, types, application_name: 'leadatlas', ...databaseTimeouts() })
    // An idle client can die (Postgres restart, network): log it instead of crashing the process.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message))
    observePool(pool)
  }
  return pool
}

export function getDb(): Kysely<Database> {
  db ??= new Kysely<Database>({ dialect: new PostgresDialect({ pool: getPool() }) })
  return db
}

/**
 * The privileged instance for the worker, billing and webhooks: it bypasses row-level security,
 * so every query MUST filter by the user it acts for (e.g. `where('user_id', '=', userId)`).
 * Never use it for a query made on behalf of a signed-in user: use withUser().
 */
export function adminDb(): Kysely<Database> {
  return getDb()
}

export interface UserClaims {
  /** The user id (auth.users.id), from verified JWT claims. */
  sub: string
  /** Only 'authenticated' is accepted: this helper never runs with more rights than a user. */
  role?: string
  [claim: string]: unknown
}

/**
 * Checks that `claims` are a signed-in user's and returns the JSON to set as request.jwt.claims
 * (role forced to `authenticated`). `caller` names the function in the error messages.
 */
function userClaimsJson(claims: UserClaims, caller: string): string {
  if (!isUuid(claims.sub)) {
    throw new Error(`${caller}: claims.sub must be the user id (a uuid)`)
  }
  if (claims.role !== undefined && claims.role !== 'authenticated') {
    throw new Error(`${caller}: refusing role "${claims.role}"; use adminDb() for privileged work`)
  }
  return JSON.stringify({ ...claims, role: 'authenticated' })
}

// set_config(..., true) is `set local`; one round trip for both settings.
const SET_USER_SQL = "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)"

/**
 * The settings of withUser() for a raw pg client that already ran `begin` (for work Kysely
 * cannot express, e.g. streaming a cursor): role `authenticated` and `request.jwt.claims` for
 * the current transaction only. Outside a transaction block they would last one statement, so
 * always call it after `begin`, and end with commit/rollback before releasing the client.
 * Throws, before any query, unless `claims` are a user's (see withUser()).
 */
export async function applyUserClaims(client: pg.ClientBase, claims: UserClaims): Promise<void> {
  const claimsJson = userClaimsJson(claims, 'applyUserClaims')
  await client.query(SET_USER_SQL, [claimsJson])
}

/**
 * Runs `fn` in one transaction as the signed-in user, the way PostgREST does: role
 * `authenticated` and `request.jwt.claims` set for this transaction only (so auth.uid() works
 * and RLS applies). Both settings end with the transaction, so pooled connections never leak them.
 * `claims` must come from a verified token (auth.getClaims()/getUser()), never from the request.
 */
export async function withUser<T>(claims: UserClaims, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const claimsJson = userClaimsJson(claims, 'withUser')
  try {
    return await getDb()
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw(SET_USER_SQL, [claimsJson]))
        return fn(trx)
      })
  } catch (error) {
    // The route's error boundary (or the API's JSON) then says "try again in a moment", status 503.
    if (isDatabaseUnavailable(error)) throw data({ error: 'database_unavailable' }, { status: 503, headers: { 'Retry-After': '5' } })
    throw error
  }
}

/** Closes the pool (tests, graceful shutdown). The next getDb() opens a new one. */
export async function closeDb(): Promise<void> {
  const current = db
  const currentPool = pool
  db = undefined
  pool = undefined
  if (current) await current.destroy() // also ends the pool
  else if (currentPool) await currentPool.end()
}
