/**
 * The "new companies" watch (issue 32 item 3), pure: which creation days a run delivers, and when an establishment
 * that was not online yet is looked for again. Days are calendar days (YYYY-MM-DD) in the saved search's time zone,
 * as the registry writes creation dates.
 *
 * A run delivers the establishments created after the previous run's cutoff and on or before its own, the last whole
 * day before the run (today's registrations are not all imported yet). The first run looks one period back: 7 days for
 * a weekly watch, 30 for a monthly one (and for a watch run only by hand). Consecutive windows share no day, so an
 * establishment is delivered by one run only.
 *
 * An establishment not found online is delivered free, then looked for on the map again at D+7 and D+30, D being the
 * day of the run that delivered it; a run on or after the due day tries it (a monthly watch's next run is its D+7
 * try). Not found on or after D+30: dropped.
 */

/** Days after its first delivery an establishment not online yet is looked for again. */
const RETRY_AFTER_DAYS = [7, 30] as const

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The calendar day `instant` falls on in `timeZone`. */
export function localDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  if (!DAY.test(day)) throw new RangeError(`not a day: ${day}`)
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10)
}

export interface WatchWindow {
  /** Exclusive: the previous run's cutoff. */
  createdAfter: string
  /** Inclusive: this run's cutoff, stored as the next run's createdAfter. */
  createdBefore: string
  /** The run's own day (D of its retries). */
  runDay: string
}

/** The creation days a run at `now` delivers (see the module comment). */
export function watchWindow({ previousCutoff, now, timeZone, kind }: { previousCutoff: string | null; now: Date; timeZone: string; kind: string }): WatchWindow {
  const runDay = localDay(now, timeZone)
  const createdBefore = addDays(runDay, -1)
  const firstDay = addDays(createdBefore, kind === 'weekly' ? -7 : -30)
  // A second run the same day (Run now after the schedule) finds an empty window, never the same days again.
  const createdAfter = previousCutoff === null ? firstDay : previousCutoff > createdBefore ? createdBefore : previousCutoff
  return { createdAfter, createdBefore, runDay }
}

/** When an establishment first delivered on `deliveredOn` is looked for again: first at D+7, last at D+30. */
export function retryDays(deliveredOn: string): { dueOn: string; finalOn: string } {
  return { dueOn: addDays(deliveredOn, RETRY_AFTER_DAYS[0]), finalOn: addDays(deliveredOn, RETRY_AFTER_DAYS[1]) }
}

/**
 * What a run on `runDay` does with a waiting establishment: nothing yet, a try (not found: it waits for `finalOn`),
 * or its last try (not found: dropped).
 */
export function retryAttempt(waiting: { dueOn: string; finalOn: string }, runDay: string): 'not_due' | 'retry' | 'last_chance' {
  if (runDay < waiting.dueOn) return 'not_due'
  return runDay >= waiting.finalOn ? 'last_chance' : 'retry'
}
