/**
 * Imports one day of one registry source into the local store, once across workers: the day is taken in
 * registry_imports (status running, a lease renewed after each page), each page is stored together with its cursor
 * (Sirene) or each family once complete (BODACC), so a crash resumes where it stopped; a done day is not fetched
 * again unless replayed. Every write is an upsert (store.ts), so a replay changes nothing.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { readSireneEtablissement } from '#app/domain/sirene-record.ts'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { BODACC_FAMILIES, bodaccDayBatches } from './bodacc-export.ts'
import { type HttpOptions, type Pacer, sireneFluxPages } from './sirene-flux.ts'
import { upsertAnnouncements, upsertEstablishments } from './store.ts'

export type RegistrySource = 'sirene' | 'bodacc'

export interface ImportDeps {
  sirene: { baseUrl: string; apiKey: string | undefined; pacer: Pacer; pageSize?: number }
  bodacc: { baseUrl: string }
  /** fetch, sleep, retries and timeouts of both clients. */
  http?: HttpOptions
  /** How long a worker holds a day without news before another may take it over. Default 10 min. */
  leaseMs?: number
  /** Import a done day again. */
  replay?: boolean
  log?: (message: string) => void
  /** Called once a page (Sirene) or a family (BODACC) is stored and saved; tests throw here to stand in for a crash. */
  afterPage?: (progress: { source: RegistrySource; day: string; cursor: string | null; rows: number }) => void | Promise<void>
}

export interface ImportDayResult {
  source: RegistrySource
  day: string
  /** imported: this call finished the day; done: it was already; busy: another worker holds it; skipped: no INSEE key. */
  outcome: 'imported' | 'done' | 'busy' | 'skipped' | 'failed'
  /** Records stored for the day (all attempts). */
  rows: number
  /** Pages (Sirene) or families (BODACC) this call fetched. */
  pages: number
  /** Records this call could not use (counted, left out). */
  unusable: number
  error?: string
}

const DEFAULT_LEASE_MS = 10 * 60_000

/** The lease was taken over by another worker (ours had expired): stop without touching the day. */
class LeaseLost extends Error {}

interface Claim {
  cursor: string | null
  rows: number
  /** started_at as Postgres wrote it (µs): the claim's token, so a worker whose lease was taken over writes nothing. */
  token: string
}

/**
 * Takes the day: a new day, a failed one, a running one whose lease has expired (its worker died), or a done one
 * when replaying (from the start). Null when another worker holds it or it is done.
 */
async function claimDay(db: Kysely<Database>, source: RegistrySource, day: string, leaseMs: number, replay: boolean): Promise<Claim | null> {
  const { rows } = await sql<{ cursor: string | null; rows: number; token: string }>`
    insert into public.registry_imports as ri (source, day, status, lease_until, started_at)
    values (${source}, ${day}::date, 'running', now() + make_interval(secs => ${leaseMs / 1000}), clock_timestamp())
    on conflict (source, day) do update
       set status = 'running', error = null, finished_at = null, lease_until = excluded.lease_until, started_at = excluded.started_at,
           cursor = case when ri.status = 'done' then null else ri.cursor end,
           rows = case when ri.status = 'done' then 0 else ri.rows end
     where ri.status = 'failed'
        or (ri.status = 'running' and (ri.lease_until is null or ri.lease_until < now()))
        or (ri.status = 'done' and ${replay})
    returning ri.cursor, ri.rows, ri.started_at::text as token`.execute(db)
  return rows[0] ?? null
}

/** Saves progress and renews the lease, in the caller's transaction; throws LeaseLost when the day is no longer ours. */
async function saveProgress(db: Kysely<Database>, source: RegistrySource, day: string, claim: Claim, leaseMs: number, cursor: string | null, rows: number): Promise<void> {
  const saved = await sql`
    update public.registry_imports
       set cursor = ${cursor}, rows = ${rows}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
     where source = ${source} and day = ${day}::date and status = 'running' and started_at = ${claim.token}::timestamptz`.execute(db)
  if (!saved.numAffectedRows) throw new LeaseLost()
}

async function finish(db: Kysely<Database>, source: RegistrySource, day: string, claim: Claim, error: string | null): Promise<void> {
  await sql`
    update public.registry_imports
       set status = ${error ? 'failed' : 'done'}, error = ${error}, lease_until = null, finished_at = now()
     where source = ${source} and day = ${day}::date and status = 'running' and started_at = ${claim.token}::timestamptz`.execute(db)
}

interface Progress {
  rows: number
  pages: number
  unusable: number
}

async function importSirene(db: Kysely<Database>, day: string, claim: Claim, deps: ImportDeps, progress: Progress, leaseMs: number): Promise<void> {
  const options = { ...deps.http, baseUrl: deps.sirene.baseUrl, apiKey: deps.sirene.apiKey!, pacer: deps.sirene.pacer, pageSize: deps.sirene.pageSize }
  for await (const page of sireneFluxPages(day, claim.cursor, options)) {
    const records = page.etablissements.map(readSireneEtablissement).filter((r): r is RegistryEstablishmentRecord => r !== null)
    progress.pages += 1
    progress.unusable += page.etablissements.length - records.length
    progress.rows += records.length
    // The last page keeps its own cursor: a crash before the day is marked done fetches that page only.
    const cursor = page.nextCursor ?? page.cursor
    await db.transaction().execute(async (trx) => {
      await upsertEstablishments(trx, records, 'flux')
      await saveProgress(trx, 'sirene', day, claim, leaseMs, cursor, progress.rows)
    })
    await deps.afterPage?.({ source: 'sirene', day, cursor, rows: progress.rows })
  }
}

/** The cursor of a BODACC day: the families already stored, in order ("collective,radiation"). */
async function importBodacc(db: Kysely<Database>, day: string, claim: Claim, deps: ImportDeps, progress: Progress, leaseMs: number): Promise<void> {
  const done = new Set(claim.cursor ? claim.cursor.split(',') : [])
  for (const family of BODACC_FAMILIES) {
    if (done.has(family)) continue
    // A family cut short is fetched again whole on resume: its rows count once the family is complete.
    let familyRows = 0
    for await (const batch of bodaccDayBatches(day, family, { ...deps.http, baseUrl: deps.bodacc.baseUrl })) {
      await upsertAnnouncements(db, batch.announcements)
      familyRows += batch.announcements.length
      progress.unusable += batch.unusable
      await saveProgress(db, 'bodacc', day, claim, leaseMs, claim.cursor, progress.rows)
    }
    done.add(family)
    progress.pages += 1
    progress.rows += familyRows
    claim.cursor = BODACC_FAMILIES.filter((f) => done.has(f)).join(',')
    await saveProgress(db, 'bodacc', day, claim, leaseMs, claim.cursor, progress.rows)
    await deps.afterPage?.({ source: 'bodacc', day, cursor: claim.cursor, rows: progress.rows })
  }
}

let warnedNoInseeKey = false

async function statusOf(db: Kysely<Database>, source: RegistrySource, day: string): Promise<{ status: string; rows: number } | undefined> {
  return db.selectFrom('registry_imports').select(['status', 'rows']).where('source', '=', source).where(sql<boolean>`day = ${day}::date`).executeTakeFirst()
}

/** Imports `day` (YYYY-MM-DD) of `source`; never throws for an upstream failure (the day is marked failed). */
export async function importDay(db: Kysely<Database>, source: RegistrySource, day: string, deps: ImportDeps): Promise<ImportDayResult> {
  const log = deps.log ?? (() => {})
  const result = (outcome: ImportDayResult['outcome'], progress: Progress, error?: string): ImportDayResult => ({ source, day, outcome, ...progress, ...(error && { error }) })
  if (source === 'sirene' && !deps.sirene.apiKey) {
    if (!warnedNoInseeKey) log('registry events: INSEE_API_KEY is not set, the Sirene flux is not imported')
    warnedNoInseeKey = true
    return result('skipped', { rows: 0, pages: 0, unusable: 0 })
  }
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS
  const claim = await claimDay(db, source, day, leaseMs, deps.replay ?? false)
  if (!claim) {
    const row = await statusOf(db, source, day)
    return result(row?.status === 'done' ? 'done' : 'busy', { rows: row?.rows ?? 0, pages: 0, unusable: 0 })
  }
  const progress: Progress = { rows: claim.rows, pages: 0, unusable: 0 }
  try {
    await (source === 'sirene' ? importSirene : importBodacc)(db, day, claim, deps, progress, leaseMs)
    await finish(db, source, day, claim, null)
    return result('imported', progress)
  } catch (error) {
    if (error instanceof LeaseLost) return result('busy', progress)
    const message = (error as Error).message || String(error)
    await finish(db, source, day, claim, message)
    log(`registry events: ${source} ${day} failed: ${message}`)
    return result('failed', progress, message)
  }
}
