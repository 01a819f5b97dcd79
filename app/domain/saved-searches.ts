// Saved searches' schedules (issue 21 item 3): when the next run is, in the user's time zone, and how a schedule
// reads. Pure: the scheduler, the forms and the list share it. A run is at a wall-clock hour of the user's zone, so a
// weekly 08:00 run stays at 08:00 across daylight-saving changes.
import type { SearchFilters } from './search-filters.ts'

export const SCHEDULE_KINDS = ['none', 'weekly', 'monthly'] as const
type ScheduleKind = (typeof SCHEDULE_KINDS)[number]

export interface Schedule {
  kind: ScheduleKind
  /** ISO weekday, 1 = Monday … 7 = Sunday (weekly). */
  weekday: number | null
  /** Day of the month 1–31 (monthly); a month without that day runs on its last day. */
  day: number | null
  /** 0–23, in `timeZone`. */
  hour: number
  timeZone: string
}

export const DEFAULT_TIME_ZONE = 'Europe/Paris'

/** An IANA zone the runtime knows (Intl throws on anything else). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}

interface LocalDate {
  year: number
  /** 1–12 */
  month: number
  day: number
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>()

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    wallClockFormats.set(timeZone, format)
  }
  return format
}

/** The zone's wall clock at `instant`, as if it were UTC (so its distance to the instant is the zone's offset). */
function wallClock(instant: number, timeZone: string): number {
  const parts = new Map(wallClockFormat(timeZone).formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? 0
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'))
}

function localDateOf(instant: number, timeZone: string): LocalDate {
  const clock = new Date(wallClock(instant, timeZone))
  return { year: clock.getUTCFullYear(), month: clock.getUTCMonth() + 1, day: clock.getUTCDate() }
}

/**
 * The instant the zone's clock reads `date` at `hour`:00. An hour skipped by a spring-forward change runs at the
 * first instant after the gap; an hour repeated by a fall-back change runs at its first occurrence.
 */
export function zonedInstant(date: LocalDate, hour: number, timeZone: string): Date {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour)
  // The zone's offsets a day either side of the guess: before and after any change near it.
  const candidates = [-86_400_000, 0, 86_400_000].map((shift) => asUtc - (wallClock(asUtc + shift, timeZone) - (asUtc + shift)))
  const exact = candidates.filter((instant) => wallClock(instant, timeZone) === asUtc).sort((a, b) => a - b)
  // In a gap none reads right: the one computed with the offset before the change is the instant the clock jumps.
  return new Date(exact[0] ?? Math.max(...candidates))
}

function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() }
}

/** 1 = Monday … 7 = Sunday. */
function isoWeekday(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() || 7
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** The first run strictly after `after`, or null without a schedule. */
export function nextRunAfter(schedule: Schedule, after: Date): Date | null {
  const { kind, hour, timeZone } = schedule
  const today = localDateOf(after.getTime(), timeZone)
  if (kind === 'weekly' && schedule.weekday) {
    for (let offset = 0; offset <= 7; offset += 1) {
      const date = addDays(today, offset)
      if (isoWeekday(date) !== schedule.weekday) continue
      const run = zonedInstant(date, hour, timeZone)
      if (run > after) return run
    }
  }
  if (kind === 'monthly' && schedule.day) {
    for (let offset = 0; offset <= 2; offset += 1) {
      const month0 = today.month - 1 + offset
      const year = today.year + Math.floor(month0 / 12)
      const month = (month0 % 12) + 1
      const run = zonedInstant({ year, month, day: Math.min(schedule.day, daysInMonth(year, month)) }, hour, timeZone)
      if (run > after) return run
    }
  }
  return null
}

/** How the list names a schedule: an i18n key (savedSearches.schedule.*) and its values. */
export function scheduleLabel(schedule: Schedule, lang: string): { key: string; values: Record<string, string | number> } {
  const hour = `${String(schedule.hour).padStart(2, '0')}:00`
  if (schedule.kind === 'weekly' && schedule.weekday) return { key: 'savedSearches.schedule.weeklyAt', values: { weekday: weekdayName(schedule.weekday, lang), hour, zone: schedule.timeZone } }
  if (schedule.kind === 'monthly' && schedule.day) return { key: 'savedSearches.schedule.monthlyAt', values: { day: schedule.day, hour, zone: schedule.timeZone } }
  return { key: 'savedSearches.schedule.none', values: {} }
}

/** The weekday's name in the language (1 = Monday). */
export function weekdayName(isoDay: number, lang: string): string {
  // 2024-01-01 was a Monday.
  return new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, isoDay)))
}

/** A run's date as the user reads it: in their zone, in their language. */
export function formatRunDate(instant: Date | string, timeZone: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone: isTimeZone(timeZone) ? timeZone : 'UTC' }).format(new Date(instant))
}

/** A run's credits: the budget caps the leads (each lead may cost up to `maxCreditsPerLead`), so it caps the spend. */
export function leadsWithinBudget(budget: number | null, maxCreditsPerLead: number, maxLeads: number | null): number | null {
  if (!budget) return maxLeads
  if (maxCreditsPerLead <= 0) return maxLeads
  const affordable = Math.floor(budget / maxCreditsPerLead)
  return maxLeads === null ? affordable : Math.min(maxLeads, affordable)
}

/** What a saved search watches: the map (criteria + filters), or the registry's new establishments. */
type SavedSearchKind = 'map' | 'new_companies'

/** A saved search as the pages and the API read it. */
export interface SavedSearch {
  id: string
  name: string
  kind: SavedSearchKind
  /** A new_companies watch's registry filters (registryFiltersSchema's input, no creation window); null for a map search. */
  registryFilters: Record<string, unknown> | null
  /** A watch's establishments delivered before they were online, still looked for on the map (D+7, D+30). */
  watchWaiting: number
  criteria: { sector: string; country: string; countryCode?: string; region: string; department: string; city: string }
  filters: Record<string, unknown>
  enrichments: string[]
  preset: string
  maxLeads: number | null
  lang: 'fr' | 'en'
  schedule: Schedule
  paused: boolean
  creditBudget: number | null
  /** CRM connections each run's new businesses are pushed to. */
  pushConnectionIds: string[]
  /** ISO; null without a schedule or while paused. */
  nextRunAt: string | null
  lastRun: LastRun | null
  createdAt: string
}

/** The last run: its export (counts live while it runs), or the refusal that stopped it. */
interface LastRun {
  at: string
  exportId: string | null
  /** The export's status, or `refused`. */
  status: string
  newCount: number | null
  credits: number | null
  refusal: string | null
}

/**
 * The filters a saved search keeps, as the search page read them (anything unreadable is "no filter"). The risk
 * shield is on unless the saved search turned it off: a run nobody watches should not pay for failing companies.
 */
export function savedFilters(stored: Record<string, unknown>): SearchFilters {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null)
  return {
    hasWebsite: stored.hasWebsite === true,
    hasPhone: stored.hasPhone === true,
    minRating: number(stored.minRating),
    minReviews: number(stored.minReviews),
    excludeClosed: stored.excludeClosed === true,
    excludeInsolvent: stored.excludeInsolvent !== false,
    excludeRadiated: stored.excludeRadiated !== false,
  }
}
