/**
 * The daily registry-events import: a pg-boss cron imports yesterday's Sirene flux and BODACC announcements, and any
 * day of the last REGISTRY_EVENTS_BACKFILL_DAYS not done yet (a worker down for a few days catches up). One job at
 * a time across workers (a singleton queue), and each day is taken in registry_imports anyway (import-day.ts), so
 * two runs never import the same day twice.
 */
import type { Kysely } from 'kysely'
import type { PgBoss } from 'pg-boss'
import { adminDb, type Database } from '#app/.server/db.ts'
import { env, type Env } from '#app/.server/env.server.ts'
import { type ImportDayResult, type ImportDeps, importDay, type RegistrySource } from './import-day.ts'
import { createPacer } from './sirene-flux.ts'

export const REGISTRY_EVENTS_QUEUE = 'registry-events'
/** Once a day (UTC), after INSEE and the DILA have published the day before. */
const REGISTRY_EVENTS_CRON = '40 6 * * *'
const INSEE_PUBLIC_URL = 'https://api.insee.fr/api-sirene/3.11'
const BODACC_PUBLIC_URL = 'https://bodacc-datadila.opendatasoft.com'
const SOURCES: readonly RegistrySource[] = ['sirene', 'bodacc']

/** The import's settings from the environment (one pacer: the INSEE pause holds across the days of a run). */
function registryImportDeps(settings: Env = env, log?: (message: string) => void): ImportDeps {
  return {
    sirene: { baseUrl: settings.INSEE_API_URL ?? INSEE_PUBLIC_URL, apiKey: settings.INSEE_API_KEY, pacer: createPacer(settings.INSEE_PAUSE_MS) },
    bodacc: { baseUrl: settings.BODACC_URL ?? BODACC_PUBLIC_URL },
    log,
  }
}

/** YYYY-MM-DD, `days` before `day` (UTC calendar). */
function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)
}

/**
 * Imports yesterday, then each older day of the last `days` (yesterday is the first), for both sources; days already
 * done are skipped without a request. `today` is YYYY-MM-DD (UTC).
 */
export async function importRecentDays(
  db: Kysely<Database>,
  { days, today, deps, log = () => {} }: { days: number; today: string; deps: ImportDeps; log?: (message: string) => void },
): Promise<ImportDayResult[]> {
  const results: ImportDayResult[] = []
  for (let back = 1; back <= Math.max(1, days); back += 1) {
    const day = daysBefore(today, back)
    for (const source of SOURCES) {
      const result = await importDay(db, source, day, { ...deps, log: deps.log ?? log })
      if (result.outcome === 'failed') log(`registry events: ${source} ${day} failed: ${result.error ?? 'unknown error'} (resumes next run)`)
      results.push(result)
    }
  }
  // One line per run, not per day: a catch-up over a long window imports hundreds of days.
  const imported = results.filter((result) => result.outcome === 'imported')
  if (imported.length) {
    const rows = (source: RegistrySource) => imported.filter((result) => result.source === source).reduce((sum, result) => sum + result.rows, 0)
    const unusable = imported.reduce((sum, result) => sum + result.unusable, 0)
    log(`registry events: ${imported.length} source-days imported (Sirene ${rows('sirene')} establishments, BODACC ${rows('bodacc')} announcements, ${unusable} unusable)`)
  }
  return results
}

/** The queue, its consumer and its daily schedule on a started pg-boss (each process may call it). */
export async function registerRegistryEventJobs(boss: PgBoss, { log = () => {} }: { log?: (message: string) => void } = {}): Promise<void> {
  // singleton: one import active at a time whatever the number of workers (a second waits in the queue).
  await boss.createQueue(REGISTRY_EVENTS_QUEUE, { policy: 'singleton', retryLimit: 0, expireInSeconds: 4 * 3600 })
  await boss.work(REGISTRY_EVENTS_QUEUE, async () => {
    const settings = env
    if (settings.REGISTRY_EVENTS_IMPORT === 'off') return { skipped: 'REGISTRY_EVENTS_IMPORT=off' }
    const today = new Date().toISOString().slice(0, 10)
    const results = await importRecentDays(adminDb(), { days: settings.REGISTRY_EVENTS_BACKFILL_DAYS, today, deps: registryImportDeps(settings, log), log })
    return { imported: results.filter((r) => r.outcome === 'imported').length, failed: results.filter((r) => r.outcome === 'failed').length }
  })
  // The schedule lives in the database: turning the import off removes it, so no worker wakes up for nothing.
  if (env.REGISTRY_EVENTS_IMPORT === 'off') return boss.unschedule(REGISTRY_EVENTS_QUEUE)
  await boss.schedule(REGISTRY_EVENTS_QUEUE, REGISTRY_EVENTS_CRON, null, { tz: 'UTC' })
  // And once at start-up: a deployment that was down (or a fresh demo) catches up its window now, not tomorrow. The
  // singleton queue keeps it to one job whatever the number of processes starting; days done cost no request.
  await boss.send(REGISTRY_EVENTS_QUEUE, null)
}
