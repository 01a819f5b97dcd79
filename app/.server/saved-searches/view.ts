// A saved-search row (with its last run's export) as the pages and the API read it (app/domain/saved-searches.ts).
import { sql } from 'kysely'
import type { SavedSearch, Schedule } from '#app/domain/saved-searches.ts'

export const SAVED_SEARCH_COLUMNS = [
  's.id',
  's.name',
  's.kind',
  's.registry_filters',
  's.criteria',
  's.filters',
  's.enrichments',
  's.preset',
  's.max_leads',
  's.lang',
  's.schedule_kind',
  's.schedule_weekday',
  's.schedule_day',
  's.schedule_hour',
  's.time_zone',
  's.paused',
  's.credit_budget',
  's.push_connection_ids',
  's.next_run_at',
  's.last_run_at',
  's.last_export_id',
  's.last_new_count',
  's.last_credits',
  's.last_refusal',
  's.created_at',
  'e.status as last_status',
  'e.lead_count as last_lead_count',
  'e.total_credits_used as last_credits_used',
  // A watch's waiting establishments (RLS: the owner's rows only); 0 for a map search.
  sql<number>`(select count(*)::int from public.saved_search_watch_retries r where r.saved_search_id = s.id)`.as('watch_waiting'),
] as const

interface SavedSearchRow {
  id: string
  name: string
  kind: string
  registry_filters: unknown
  watch_waiting: number
  criteria: unknown
  filters: unknown
  enrichments: string[]
  preset: string
  max_leads: number | null
  lang: string
  schedule_kind: string
  schedule_weekday: number | null
  schedule_day: number | null
  schedule_hour: number
  time_zone: string
  paused: boolean
  credit_budget: number | null
  push_connection_ids: string[]
  next_run_at: Date | null
  last_run_at: Date | null
  last_export_id: string | null
  last_new_count: number | null
  last_credits: number | null
  last_refusal: string | null
  created_at: Date
  last_status: string | null
  last_lead_count: number | null
  last_credits_used: number | null
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function criteriaOf(raw: unknown): SavedSearch['criteria'] {
  const stored = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
  const countryCode = text(stored.countryCode)
  return {
    sector: text(stored.sector),
    country: text(stored.country),
    ...(countryCode ? { countryCode } : {}),
    region: text(stored.region),
    department: text(stored.department),
    city: text(stored.city),
  }
}

function lastRunOf(row: SavedSearchRow): SavedSearch['lastRun'] {
  if (!row.last_run_at) return null
  if (row.last_refusal) return { at: row.last_run_at.toISOString(), exportId: null, status: 'refused', newCount: null, credits: null, refusal: row.last_refusal }
  // The export's own counts while it runs; once ended, the trigger copied them (and they outlive its deletion).
  return {
    at: row.last_run_at.toISOString(),
    exportId: row.last_export_id,
    status: row.last_status ?? 'deleted',
    newCount: row.last_lead_count ?? row.last_new_count,
    credits: row.last_credits_used ?? row.last_credits,
    refusal: null,
  }
}

export function toSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind === 'new_companies' ? 'new_companies' : 'map',
    registryFilters: row.registry_filters && typeof row.registry_filters === 'object' ? { ...(row.registry_filters as Record<string, unknown>) } : null,
    watchWaiting: Number(row.watch_waiting ?? 0),
    criteria: criteriaOf(row.criteria),
    filters: row.filters && typeof row.filters === 'object' ? { ...(row.filters as Record<string, unknown>) } : {},
    enrichments: row.enrichments,
    preset: row.preset,
    maxLeads: row.max_leads,
    lang: row.lang === 'en' ? 'en' : 'fr',
    schedule: scheduleOf(row),
    paused: row.paused,
    creditBudget: row.credit_budget,
    pushConnectionIds: row.push_connection_ids ?? [],
    nextRunAt: row.next_run_at?.toISOString() ?? null,
    lastRun: lastRunOf(row),
    createdAt: row.created_at.toISOString(),
  }
}

export function scheduleOf(row: { schedule_kind: string; schedule_weekday: number | null; schedule_day: number | null; schedule_hour: number; time_zone: string }): Schedule {
  const kind = row.schedule_kind === 'weekly' || row.schedule_kind === 'monthly' ? row.schedule_kind : 'none'
  return { kind, weekday: row.schedule_weekday, day: row.schedule_day, hour: row.schedule_hour, timeZone: row.time_zone }
}
