import { describe, expect, it } from 'vitest'
import { formatRunDate, isTimeZone, leadsWithinBudget, nextRunAfter, savedFilters, scheduleLabel, zonedInstant, type Schedule } from '#app/domain/saved-searches.ts'

const weekly = (weekday: number, hour: number, timeZone = 'Europe/Paris'): Schedule => ({ kind: 'weekly', weekday, day: null, hour, timeZone })
const monthly = (day: number, hour: number, timeZone = 'Europe/Paris'): Schedule => ({ kind: 'monthly', weekday: null, day, hour, timeZone })

describe('nextRunAfter', () => {
  it('has no run without a schedule', () => {
    expect(nextRunAfter({ kind: 'none', weekday: null, day: null, hour: 8, timeZone: 'Europe/Paris' }, new Date('2026-11-28T10:00:00Z'))).toBeNull()
  })

  it('runs weekly at the hour of the user’s zone', () => {
    // Saturday 28 Nov 2026, 11:00 in Paris (UTC+1): the next Monday 08:00 Paris is 07:00 UTC.
    expect(nextRunAfter(weekly(1, 8), new Date('2026-11-28T10:00:00Z'))?.toISOString()).toBe('2026-11-30T07:00:00.000Z')
    // Same day, hour still to come: today.
    expect(nextRunAfter(weekly(6, 14), new Date('2026-11-28T10:00:00Z'))?.toISOString()).toBe('2026-11-28T13:00:00.000Z')
    // Same day, hour passed (or exactly now): a week later.
    expect(nextRunAfter(weekly(6, 11), new Date('2026-11-28T10:00:00Z'))?.toISOString()).toBe('2026-12-05T10:00:00.000Z')
  })

  it('keeps the wall-clock hour across a daylight-saving change', () => {
    // Paris leaves summer time on Sunday 25 Oct 2026: Monday 08:00 is 06:00 UTC before, 07:00 UTC after.
    const first = nextRunAfter(weekly(1, 8), new Date('2026-10-18T12:00:00Z'))
    expect(first?.toISOString()).toBe('2026-10-19T06:00:00.000Z')
    expect(nextRunAfter(weekly(1, 8), first!)?.toISOString()).toBe('2026-10-26T07:00:00.000Z')
    // New York enters summer time on 8 Mar 2026.
    expect(nextRunAfter(weekly(1, 9, 'America/New_York'), new Date('2026-03-03T00:00:00Z'))?.toISOString()).toBe('2026-03-09T13:00:00.000Z')
  })

  it('runs an hour skipped by spring-forward when the clock jumps, a repeated hour at its first occurrence', () => {
    // 29 Mar 2026 in Paris: 02:00 does not exist (01:59 CET → 03:00 CEST at 01:00 UTC).
    expect(zonedInstant({ year: 2026, month: 3, day: 29 }, 2, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z')
    // 25 Oct 2026 in Paris: 02:00 happens twice (00:00 UTC then 01:00 UTC).
    expect(zonedInstant({ year: 2026, month: 10, day: 25 }, 2, 'Europe/Paris').toISOString()).toBe('2026-10-25T00:00:00.000Z')
    // New York: 02:00 on 8 Mar 2026 does not exist (07:00 UTC the clock jumps to 03:00).
    expect(zonedInstant({ year: 2026, month: 3, day: 8 }, 2, 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z')
  })

  it('runs monthly on the day, or the month’s last day when it has none', () => {
    expect(nextRunAfter(monthly(15, 9), new Date('2026-11-28T10:00:00Z'))?.toISOString()).toBe('2026-12-15T08:00:00.000Z')
    expect(nextRunAfter(monthly(31, 9), new Date('2027-01-31T09:00:00Z'))?.toISOString()).toBe('2027-02-28T08:00:00.000Z')
    expect(nextRunAfter(monthly(31, 9), new Date('2028-02-01T00:00:00Z'))?.toISOString()).toBe('2028-02-29T08:00:00.000Z')
    expect(nextRunAfter(monthly(30, 9), new Date('2027-02-28T09:00:00Z'))?.toISOString()).toBe('2027-03-30T07:00:00.000Z')
    // December → January crosses the year.
    expect(nextRunAfter(monthly(1, 0), new Date('2026-12-02T00:00:00Z'))?.toISOString()).toBe('2026-12-31T23:00:00.000Z')
  })

  it('reads the date in the zone, not in UTC', () => {
    // 23:30 UTC on Sunday is already Monday 08:30 in Tokyo: next Monday 08:00 Tokyo is a week later.
    expect(nextRunAfter(weekly(1, 8, 'Asia/Tokyo'), new Date('2026-11-29T23:30:00Z'))?.toISOString()).toBe('2026-12-06T23:00:00.000Z')
  })
})

describe('schedule display', () => {
  it('names the weekday and the hour in the language', () => {
    expect(scheduleLabel(weekly(1, 8), 'fr')).toEqual({ key: 'savedSearches.schedule.weeklyAt', values: { weekday: 'lundi', hour: '08:00', zone: 'Europe/Paris' } })
    expect(scheduleLabel(monthly(31, 17), 'en').values).toEqual({ day: 31, hour: '17:00', zone: 'Europe/Paris' })
    expect(scheduleLabel({ kind: 'none', weekday: null, day: null, hour: 8, timeZone: 'UTC' }, 'en').key).toBe('savedSearches.schedule.none')
    expect(formatRunDate('2026-11-30T07:00:00Z', 'Europe/Paris', 'en')).toContain('Monday, November 30, 2026')
    expect(formatRunDate('2026-11-30T07:00:00Z', 'Europe/Paris', 'en')).toContain('8:00')
  })

  it('knows time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
    expect(isTimeZone('')).toBe(false)
  })
})

describe('leadsWithinBudget', () => {
  it('caps the leads so the run cannot spend more than its budget', () => {
    expect(leadsWithinBudget(null, 5, null)).toBeNull()
    expect(leadsWithinBudget(null, 5, 40)).toBe(40)
    expect(leadsWithinBudget(50, 5, null)).toBe(10)
    expect(leadsWithinBudget(50, 5, 4)).toBe(4)
    expect(leadsWithinBudget(3, 5, null)).toBe(0)
  })
})

describe('savedFilters', () => {
  it('reads the stored filters, anything unreadable as no filter; the risk shield on unless turned off', () => {
    expect(savedFilters({ hasWebsite: true, minRating: 4.5, minReviews: 'lots', excludeClosed: 'yes' })).toEqual({ hasWebsite: true, hasPhone: false, minRating: 4.5, minReviews: null, excludeClosed: false, excludeInsolvent: true, excludeRadiated: true })
    expect(savedFilters({})).toEqual({ hasWebsite: false, hasPhone: false, minRating: null, minReviews: null, excludeClosed: false, excludeInsolvent: true, excludeRadiated: true })
    expect(savedFilters({ excludeInsolvent: false, excludeRadiated: false })).toMatchObject({ excludeInsolvent: false, excludeRadiated: false })
  })
})
