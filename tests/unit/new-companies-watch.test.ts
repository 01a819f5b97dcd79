// The new-companies watch's day rules (app/domain/new-companies-watch.ts): windows that share no day, the first
// run's period, the retry days and what a run does with a waiting establishment.
import { describe, expect, it } from 'vitest'
import { addDays, localDay, retryAttempt, retryDays, watchWindow } from '#app/domain/new-companies-watch.ts'

describe('watch windows', () => {
  it('a first weekly run looks 7 days back and stops at the day before the run, in the watch zone', () => {
    // 23:30 UTC on the 4th is already the 5th in Paris.
    expect(watchWindow({ previousCutoff: null, now: new Date('2031-05-04T23:30:00Z'), timeZone: 'Europe/Paris', kind: 'weekly' })).toEqual({ createdAfter: '2031-04-27', createdBefore: '2031-05-04', runDay: '2031-05-05' })
    expect(watchWindow({ previousCutoff: null, now: new Date('2031-05-04T23:30:00Z'), timeZone: 'UTC', kind: 'weekly' }).runDay).toBe('2031-05-04')
  })
  it('a first monthly run looks 30 days back; later runs start at the previous cutoff', () => {
    expect(watchWindow({ previousCutoff: null, now: new Date('2031-03-01T08:00:00Z'), timeZone: 'Europe/Paris', kind: 'monthly' })).toMatchObject({ createdAfter: '2031-01-29', createdBefore: '2031-02-28' })
    expect(watchWindow({ previousCutoff: '2031-02-28', now: new Date('2031-04-01T08:00:00Z'), timeZone: 'Europe/Paris', kind: 'monthly' })).toMatchObject({ createdAfter: '2031-02-28', createdBefore: '2031-03-31' })
  })
  it('consecutive runs share no day, and a second run the same day gets an empty window', () => {
    const first = watchWindow({ previousCutoff: null, now: new Date('2031-05-05T06:00:00Z'), timeZone: 'Europe/Paris', kind: 'weekly' })
    const second = watchWindow({ previousCutoff: first.createdBefore, now: new Date('2031-05-12T06:00:00Z'), timeZone: 'Europe/Paris', kind: 'weekly' })
    expect(second.createdAfter).toBe(first.createdBefore)
    const again = watchWindow({ previousCutoff: second.createdBefore, now: new Date('2031-05-12T18:00:00Z'), timeZone: 'Europe/Paris', kind: 'weekly' })
    expect(again.createdAfter).toBe(again.createdBefore)
    // A cutoff ahead of the clock (a clock set back) never makes a window run backwards.
    expect(watchWindow({ previousCutoff: '2031-06-01', now: new Date('2031-05-12T06:00:00Z'), timeZone: 'Europe/Paris', kind: 'weekly' })).toMatchObject({ createdAfter: '2031-05-11', createdBefore: '2031-05-11' })
  })
})

describe('retries', () => {
  it('are due at D+7 and D+30, across months and leap days', () => {
    expect(retryDays('2031-05-05')).toEqual({ dueOn: '2031-05-12', finalOn: '2031-06-04' })
    expect(retryDays('2032-02-25')).toEqual({ dueOn: '2032-03-03', finalOn: '2032-03-26' })
    expect(addDays('2031-12-31', 1)).toBe('2032-01-01')
    expect(() => addDays('31/12/2031', 1)).toThrow(RangeError)
    expect(localDay(new Date('2031-12-31T23:30:00Z'), 'Europe/Paris')).toBe('2032-01-01')
  })
  it('a run before the due day leaves it; from it, a try; on or after D+30, the last one', () => {
    const waiting = retryDays('2031-05-05')
    expect(retryAttempt(waiting, '2031-05-11')).toBe('not_due')
    expect(retryAttempt(waiting, '2031-05-12')).toBe('retry')
    expect(retryAttempt(waiting, '2031-06-03')).toBe('retry')
    expect(retryAttempt(waiting, '2031-06-04')).toBe('last_chance')
    // A monthly watch's next run comes after D+7: its first try.
    expect(retryAttempt(waiting, '2031-06-05')).toBe('last_chance')
  })
})
