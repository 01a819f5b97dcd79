// The API's pure pieces: the export object, the key's shape, the page cursors.
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { decodeCursor, encodeCursor, InvalidCursor } from '#app/.server/api-v1/cursor.ts'
import { ApiExportSchema, toApiExport } from '#app/domain/api-export.ts'
import { isApiKeyShaped } from '#app/domain/api-keys.ts'

const ROW = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Bakeries',
  status: 'completed',
  progress_info: { phase: 'done', done: 40, total: 40, successes: 31 },
  progress_percentage: 100,
  lead_count: 20,
  total_credits_used: 31,
  enrichment_options: { phone: true, email: { verified: true }, website: false },
  created_at: new Date('2026-11-27T08:00:00Z'),
  completed_at: '2026-11-27T08:05:00.000Z',
  saved_search_id: null,
  webhook_url: null,
}

describe('the export object', () => {
  test('is built from the row with the enrichments chosen, in their canonical order, and matches its schema', () => {
    const exp = toApiExport(ROW)
    expect(exp).toEqual({
      id: ROW.id,
      name: 'Bakeries',
      status: 'completed',
      progress: { phase: 'done', done: 40, total: 40 },
      lead_count: 20,
      credits_used: 31,
      enrichments: ['phone', 'email'],
      created_at: '2026-11-27T08:00:00.000Z',
      completed_at: '2026-11-27T08:05:00.000Z',
      saved_search_id: null,
      webhook_url: null,
    })
    expect(ApiExportSchema.parse(exp)).toEqual(exp)
    const run = '00000000-0000-4000-8000-0000000000aa'
    expect(toApiExport({ ...ROW, saved_search_id: run }).saved_search_id).toBe(run)
  })

  test('never shows what the schema does not allow: unknown status, missing or broken progress', () => {
    const exp = toApiExport({ ...ROW, status: 'weird', progress_info: { phase: 'launch', done: -3, total: 'x' }, completed_at: null })
    expect(exp.status).toBe('pending')
    expect(exp.progress).toEqual({ phase: 'search', done: 0, total: 0 })
    expect(ApiExportSchema.safeParse(exp).success).toBe(true)
  })
})

describe('API keys', () => {
  test('are la_ and 32 to 100 base62 characters', () => {
    expect(isApiKeyShaped(`la_${'a1B'.repeat(11)}`)).toBe(true)
    expect(isApiKeyShaped(`la_${'a'.repeat(31)}`)).toBe(false)
    expect(isApiKeyShaped(`lb_${'a'.repeat(40)}`)).toBe(false)
    expect(isApiKeyShaped(`la_${'a'.repeat(39)}-`)).toBe(false)
    expect(isApiKeyShaped(`la_${'a'.repeat(101)}`)).toBe(false)
  })
})

describe('cursors', () => {
  const Shape = z.tuple([z.iso.datetime({ offset: true }), z.uuid()])
  test('round-trip the position', () => {
    const position = ['2026-11-27T08:00:00.000Z', ROW.id] as const
    expect(decodeCursor(encodeCursor(position), Shape)).toEqual(position)
  })
  test('refuse anything else: junk, other JSON, another shape, a date out of range', () => {
    const outOfRange = [encodeCursor(['0000-01-01T00:00:00.000Z', ROW.id]), encodeCursor(['0000-02-29T00:00:00Z', ROW.id])]
    for (const cursor of ['%%%', 'bm90LWpzb24', Buffer.from('{"a":1}').toString('base64url'), encodeCursor(['not a date', ROW.id]), '', ...outOfRange]) {
      expect(() => decodeCursor(cursor, Shape), cursor).toThrow(InvalidCursor)
    }
  })
})
