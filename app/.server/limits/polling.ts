/**
 * How long a process waits before asking the database again for a slot that was full. Short at first (a slot held by
 * a page fetch frees within tens of ms), doubling up to a ceiling so that a key held for long (a slow Overpass query)
 * costs a query every few hundred ms per waiter, not a storm; jittered so that waiters of several processes do not
 * ask in step.
 */
export interface PollSchedule {
  firstMs: number
  maxMs: number
}

export const DEFAULT_POLL: PollSchedule = { firstMs: 10, maxMs: 250 }

/** The wait before attempt `attempt` + 1 (0-based), given a random number in [0, 1). */
export function pollDelay(attempt: number, random: number, schedule: PollSchedule = DEFAULT_POLL): number {
  const ceiling = Math.min(schedule.maxMs, schedule.firstMs * 2 ** Math.min(attempt, 20))
  // Between half and all of the ceiling: never zero, never in step.
  return Math.max(1, Math.round(ceiling * (0.5 + random / 2)))
}
