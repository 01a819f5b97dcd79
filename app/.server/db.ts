// Database access (ARCHITECTURE §4): Kysely over a pg Pool.
// - withUser(): every user-facing query. Runs as role `authenticated` with the user's verified JWT
//   claims, exactly like PostgREST, so Postgres row-level security decides what the user can see.
// - adminDb(): the privileged connection for the worker, billing and webhooks. It bypasses RLS.
import { CompiledQuery, Kysely, PostgresDialect, sql, type ColumnType, type Generated, type RawBuilder, type Transaction } from 'kysely'
import pg from 'pg'
import { data } from 'react-router'
import { isDatabaseUnavailable } from './db-errors.ts'
import { isUuid } from '#app/domain/ids.ts'

// ---------------------------------------------------------------------------
// Column helper types. ColumnType<Select, Insert, Update>.

/** timestamptz: read as Date, written as Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type TimestampWithDefault = ColumnType<Date, Date | string | undefined, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
/** numeric / bigint are parsed to JS numbers by this pool (see `types` below). */
type NumericWithDefault = ColumnType<number, number | string | undefined, number | string>
type NullableNumeric = ColumnType<number | null, number | string | null | undefined, number | string | null>

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue | undefined }
export type JsonObject = { [key: string]: JsonValue | undefined }

/**
 * jsonb column. Plain objects can be passed directly (pg JSON-encodes them), but pg turns JS
 * arrays into Postgres array literals, so wrap array values (or anything) in `jsonb(value)`.
 */
type Jsonb<T> = ColumnType<T, T | undefined, T>
type NullableJsonb<T> = ColumnType<T | null, T | null | undefined, T | null>

/** Wraps a value as a jsonb parameter (needed for arrays; fine for everything). */
export function jsonb<T extends JsonValue>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::jsonb`
}

// ---------------------------------------------------------------------------
// JSON shapes stored in jsonb columns (SPEC §3). Extra keys are allowed.

export type SearchParamsJson = JsonObject & {
  sector?: string
  country?: string
  countryCode?: string
  region?: string
  department?: string
  city?: string
  lang?: string
}

/** On a stored export, `social` may be an object: it counts as true when any value is true. */
export type EnrichmentOptionsJson = JsonObject & {
  phone?: boolean
  website?: boolean
  technologies?: boolean
  email?: boolean
  social?: boolean | { [network: string]: boolean }
  admin_fr_info?: boolean
}

export type EnrichmentType = 'phone' | 'website' | 'email' | 'technologies' | 'social_media' | 'admin_fr_info'
export type EnrichmentStatus = 'not_required' | 'pending' | 'success' | 'not_found' | 'failed'
export type ExportStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'interrupted'
export type SubscriptionStatus = 'active' | 'canceling' | 'canceled' | 'incomplete' | 'past_due'
export type CreditReason = 'free_trial' | 'subscription_reload' | 'enrichment' | 'adjustment'

// ---------------------------------------------------------------------------
// Tables (supabase/migrations). Keep in step with the SQL.

export interface UsersTable {
  id: string // = auth.users.id; the row is created by the sign-up trigger
  first_name: string | null
  last_name: string | null
  company_name: string | null
  phone: string | null
  created_at: TimestampWithDefault
  updated_at: TimestampWithDefault
}

/** Written only by public.apply_credit_change(). */
export interface UserCreditsTable {
  user_id: string
  remaining_credits: ColumnType<number, number | undefined, number>
  total_credits: ColumnType<number, number | undefined, number>
  updated_at: TimestampWithDefault
}

/** Written only by public.apply_credit_change(). sum(delta) = user_credits.remaining_credits. */
export interface CreditLedgerTable {
  id: Generated<number>
  user_id: string
  delta: number
  balance_after: number
  reason: CreditReason
  export_id: string | null
  lead_id: string | null
  enrichment_type: string | null
  idempotency_key: string | null
  metadata: Jsonb<JsonObject>
  created_at: TimestampWithDefault
}

export interface UserSubscriptionsTable {
  id: Generated<string>
  user_id: string
  plan_id: string
  status: SubscriptionStatus
  frequency: 'monthly' | 'annual' | null
  current_period_end: NullableTimestamp
  next_credit_date: NullableTimestamp
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  created_at: TimestampWithDefault
  updated_at: TimestampWithDefault
}

export interface ExportsTable {
  id: Generated<string>
  user_id: string
  name: Generated<string>
  search_params: NullableJsonb<SearchParamsJson>
  enrichment_options: NullableJsonb<EnrichmentOptionsJson>
  status: ColumnType<ExportStatus, ExportStatus | undefined, ExportStatus>
  search_status: string | null
  enrichment_status: string | null
  enrichment_status_details: NullableJsonb<JsonValue>
  lead_count: Generated<number>
  total_credits_used: Generated<number>
  created_at: TimestampWithDefault
  updated_at: TimestampWithDefault
  completed_at: NullableTimestamp
  download_url: string | null
  can_resume: Generated<boolean>
  progress_percentage: NumericWithDefault
  progress_info: NullableJsonb<JsonValue>
  bbox: NullableJsonb<JsonValue>
  polygon: NullableJsonb<JsonValue>
  country: string | null
  region: string | null
  department: string | null
  city: string | null
  business_types: Generated<string[]>
  /** unique per user: a double submit creates one export. */
  idempotency_key: string | null
}

export interface LeadsTable {
  id: Generated<string>
  user_id: string
  /** unique (user_id, source, place_id) */
  source: string
  business_id: string | null
  place_id: string | null
  name: Generated<string>
  phone: string | null
  website: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
  latitude: number | null
  longitude: number | null
  review_count: number | null
  rating: NullableNumeric
  timezone: string | null
  google_maps_url: string | null
  business_types: Generated<string[]>
  pricing: string | null
  working_hours: NullableJsonb<JsonValue>
  operational_state: string | null
  description: string | null
  email: Generated<string[]>
  /** category -> value or list of values */
  technologies: Jsonb<{ [category: string]: string | string[] }>
  /** network -> URL */
  social_media: Jsonb<{ [network: string]: string }>
  /** registry match; has a `results` list */
  admin_fr_info: NullableJsonb<JsonObject & { results?: JsonValue[] }>
  full_address: string | null
  full_address_array: string[] | null
  is_claimed: boolean | null
  verified: boolean | null
  photos: NullableJsonb<JsonValue>
  created_at: TimestampWithDefault
  updated_at: TimestampWithDefault
}

type StatusColumn = ColumnType<EnrichmentStatus, EnrichmentStatus | undefined, EnrichmentStatus>

export interface ExportLeadsTable {
  export_id: string
  lead_id: string
  user_id: string
  position: number
  phone_status: StatusColumn
  website_status: StatusColumn
  email_status: StatusColumn
  technologies_status: StatusColumn
  social_media_status: StatusColumn
  admin_fr_info_status: StatusColumn
}

/** Worker only (RLS on, no user policies). */
export interface EnrichmentCacheTable {
  key: string
  kind: string
  value: NullableJsonb<JsonValue>
  fetched_at: TimestampWithDefault
}

export interface Database {
  users: UsersTable
  user_credits: UserCreditsTable
  credit_ledger: CreditLedgerTable
  user_subscriptions: UserSubscriptionsTable
  exports: ExportsTable
  leads: LeadsTable
  export_leads: ExportLeadsTable
  enrichment_cache: EnrichmentCacheTable
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

let pool: pg.Pool | undefined
let db: Kysely<Database> | undefined

export function getPool(): pg.Pool {
  if (!pool) {
    const connectionString = process.env.DATABASE_URL
    if (!connectionString) {
      throw new Error('DATABASE_URL is not set: it must point at the Postgres database (npm start sets it for the embedded one).')
    }
    pool = new pg.Pool({ connectionString, max: 10, types, application_name: 'leadatlas', ...databaseTimeouts() })
    // An idle client can die (Postgres restart, network): log it instead of crashing the process.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message))
  }
  return pool
}

/**
 * A request never waits on the database for longer than a user would: a slow statement is
 * cancelled by Postgres (statement_timeout), a paused or unreachable server by the client
 * (connection and query timeouts); both then answer 503 (withUser) instead of hanging.
 */
export function databaseTimeouts() {
  const statement = positiveInt(process.env.DB_STATEMENT_TIMEOUT_MS, 8_000)
  return {
    connectionTimeoutMillis: positiveInt(process.env.DB_CONNECT_TIMEOUT_MS, 5_000),
    statement_timeout: statement,
    // Client-side backstop for a server that accepts the connection but never answers (paused, partitioned).
    query_timeout: statement + 2_000,
    idle_in_transaction_session_timeout: positiveInt(process.env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, 300_000),
  }
}

function positiveInt(value: string | undefined, fallback: number) {
  const parsed = Number(value)
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback
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
