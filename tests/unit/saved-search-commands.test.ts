import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { SavedSearchActionSchema, SaveSearchSchema, UpdateSavedSearchSchema } from '#app/domain/saved-search-commands.ts'

const UUID = '3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7a8b9c'

function form(entries: Array<[string, string]>) {
  const data = new FormData()
  for (const [name, value] of entries) data.append(name, value)
  return data
}

/** The refusals of an update form, by field (undefined when it is accepted). */
function updateErrors(entries: Array<[string, string]>) {
  const submission = parseWithZod(form(entries), { schema: UpdateSavedSearchSchema })
  return submission.status === 'error' ? submission.error : undefined
}

const UPDATE: Array<[string, string]> = [
  ['intent', 'update'],
  ['name', 'Bakeries – Brest'],
  ['options', 'phone'],
  ['options', 'email'],
  ['preset', 'crm'],
  ['scheduleKind', 'weekly'],
  ['weekday', '1'],
  ['day', '1'],
  ['hour', '8'],
  ['timeZone', 'Europe/Paris'],
]

describe('SaveSearchSchema', () => {
  it('reads the dialog: name, enrichments (unknown ones dropped), columns, an optional cap', () => {
    const submission = parseWithZod(form([['intent', 'save-search'], ['name', '  Bakeries  '], ['options', 'phone'], ['options', 'fax'], ['preset', 'contacts'], ['maxLeads', '']]), { schema: SaveSearchSchema })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({ intent: 'save-search', name: 'Bakeries', options: ['phone'], preset: 'contacts' })
  })

  it('keeps the browser’s time zone when it is a real one', () => {
    const read = (zone: string) => {
      const submission = parseWithZod(form([['intent', 'save-search'], ['name', 'A'], ['options', 'phone'], ['timeZone', zone]]), { schema: SaveSearchSchema })
      return submission.status === 'success' ? submission.value.timeZone : 'refused'
    }
    expect(read('America/New_York')).toBe('America/New_York')
    expect(read('Mars/Olympus')).toBeUndefined()
  })

  it('names what is wrong, field by field', () => {
    const submission = parseWithZod(form([['intent', 'save-search'], ['name', ' '], ['preset', 'everything'], ['maxLeads', '0']]), { schema: SaveSearchSchema })
    expect(submission.status === 'error' && submission.error).toMatchObject({
      name: ['savedSearches.errors.nameRequired'],
      options: ['savedSearches.errors.noEnrichment'],
      preset: ['savedSearches.errors.preset'],
      maxLeads: ['savedSearches.errors.maxLeads'],
    })
  })
})

describe('UpdateSavedSearchSchema', () => {
  it('reads a weekly schedule with a budget', () => {
    const submission = parseWithZod(form([...UPDATE, ['creditBudget', '50']]), { schema: UpdateSavedSearchSchema })
    expect(submission.status === 'success' && submission.value).toMatchObject({ scheduleKind: 'weekly', weekday: 1, hour: 8, timeZone: 'Europe/Paris', creditBudget: 50, preset: 'crm' })
  })

  it('needs the day its kind uses, a known time zone, an hour of the day and a budget of at least 1', () => {
    const replace = (name: string, value: string) => UPDATE.map(([key, old]): [string, string] => [key, key === name ? value : old])
    expect(updateErrors(replace('weekday', '').concat([['creditBudget', '0']]))).toMatchObject({ weekday: ['savedSearches.errors.weekday'], creditBudget: ['savedSearches.errors.creditBudget'] })
    expect(updateErrors(replace('scheduleKind', 'monthly').filter(([key]) => key !== 'day'))).toMatchObject({ day: ['savedSearches.errors.day'] })
    expect(updateErrors(replace('timeZone', 'Europe/Atlantis'))).toMatchObject({ timeZone: ['savedSearches.errors.timeZone'] })
    expect(updateErrors(replace('hour', '24'))).toMatchObject({ hour: ['savedSearches.errors.hour'] })
    expect(updateErrors(replace('scheduleKind', 'daily'))).toMatchObject({ scheduleKind: ['savedSearches.errors.scheduleKind'] })
  })
})

describe('SavedSearchActionSchema', () => {
  it('tells the list’s buttons apart and refuses a malformed id', () => {
    expect(SavedSearchActionSchema.safeParse({ intent: 'run', id: UUID, idempotencyKey: 'k' }).success).toBe(true)
    expect(SavedSearchActionSchema.safeParse({ intent: 'pause', id: UUID }).success).toBe(true)
    expect(SavedSearchActionSchema.safeParse({ intent: 'delete', id: 'nope' }).success).toBe(false)
    expect(SavedSearchActionSchema.safeParse({ intent: 'explode', id: UUID }).success).toBe(false)
  })
})
