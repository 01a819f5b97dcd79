/**
 * The fill rate of each enrichment type as this product has observed it: success / (success + not_found + failed)
 * over the tasks of exports created in the last 30 days, across all users. Aggregates only (no row leaves this
 * module), read with the privileged connection because no user may read another's export_leads. Cached a few
 * minutes: the estimate moves slowly and the modal opens often.
 *
 * A type with too few decided tasks keeps its documented default (enrichment-types.ts `defaultFillRate`).
 */
import { sql, type Kysely } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import type { FillRates } from '#app/domain/export-cost.ts'

const WINDOW_DAYS = 30
/** Below this many decided tasks an observed rate says more about a few exports than about the type. */
export const MIN_OBSERVED_TASKS = 50
const CACHE_MS = 5 * 60_000

let cached: { at: number; rates: Promise<FillRates> } | null = null

export function defaultFillRates(): FillRates {
  return Object.fromEntries(ENRICHMENT_TABLE.map((entry) => [entry.key, entry.defaultFillRate]))
}

/** Reads the observed rates now (no cache). */
export async function observedFillRates(db: Kysely<Database> = adminDb()): Promise<FillRates> {
  const counts = ENRICHMENT_TABLE.flatMap((entry) => {
    const column = sql.ref(`el.${entry.statusColumn}`)
    return [
      sql<number>`count(*) filter (where ${column} = 'success')::int`.as(`${entry.key}__success`),
      sql<number>`count(*) filter (where ${column} in ('success', 'not_found', 'failed'))::int`.as(`${entry.key}__decided`),
    ]
  })
  const row = (await db
    .selectFrom('export_leads as el')
    .innerJoin('exports as e', 'e.id', 'el.export_id')
    .where('e.created_at', '>', sql<Date>`now() - make_interval(days => ${WINDOW_DAYS})`)
    .select(counts)
    .executeTakeFirst()) as Record<string, number> | undefined
  const defaults = defaultFillRates()
  return Object.fromEntries(
    ENRICHMENT_TABLE.map((entry) => {
      const decided = Number(row?.[`${entry.key}__decided`] ?? 0)
      const success = Number(row?.[`${entry.key}__success`] ?? 0)
      return [entry.key, decided >= MIN_OBSERVED_TASKS ? success / decided : (defaults[entry.key] as number)]
    }),
  )
}

/**
 * The rates the export modal shows, from a cache a few minutes old at most; modals opened together share one read.
 * A failed read falls back to the defaults (and is tried again on the next modal).
 */
export function currentFillRates(): Promise<FillRates> {
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.rates
  const read = observedFillRates().catch((error: unknown) => {
    console.error('Fill rates could not be read; using the defaults', error)
    cached = null
    return defaultFillRates()
  })
  cached = { at: Date.now(), rates: read }
  return read
}
