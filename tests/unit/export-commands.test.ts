import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import {
  AddEnrichmentBodySchema,
  CreateExportSchema,
  CreateRegistryExportSchema,
  EnrichmentChoiceSchema,
  EnrichmentMapSchema,
  ExportDetailCommandSchema,
  ExportIdSchema,
  ExportRefBodySchema,
  ExportStatusFilterSchema,
} from '#app/domain/export-commands.ts'
import { EXPORT_ERROR_KEYS, EXPORT_STATUS_FILTERS, exportErrorMessageKey, offersResume, plansHint } from '#app/domain/exports.ts'

const UUID = '3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7a8b9c'

function form(entries: Array<[string, string]>) {
  const data = new FormData()
  for (const [name, value] of entries) data.append(name, value)
  return data
}

describe('enrichment choice: one schema for the form values and the API map', () => {
  it('keeps the known types in table order and drops unknown names', () => {
    expect(EnrichmentChoiceSchema.parse(['email', 'bogus', 'phone'])).toEqual(['phone', 'email'])
    expect(EnrichmentChoiceSchema.parse(undefined)).toEqual([])
    expect(EnrichmentChoiceSchema.safeParse('phone').success).toBe(false)
  })
  it('reads the API map: only types set to true', () => {
    expect(EnrichmentMapSchema.parse({ website: true, email: 'yes', phone: false, bogus: true })).toEqual(['website'])
    expect(EnrichmentMapSchema.parse({})).toEqual([])
    for (const bad of ['all', ['phone'], null, 3]) expect(EnrichmentMapSchema.safeParse(bad).success).toBe(false)
  })
})

describe('create export (search page modal)', () => {
  it('parses a form with one checked box (conform makes it a list) and trims the name', () => {
    const submission = parseWithZod(form([['intent', 'create-export'], ['name', '  Bakeries  '], ['options', 'email'], ['idempotencyKey', 'k1']]), { schema: CreateExportSchema })
    expect(submission.status).toBe('success')
    if (submission.status === 'success') expect(submission.value).toEqual({ intent: 'create-export', name: 'Bakeries', options: ['email'], idempotencyKey: 'k1' })
  })
  it('answers the name rules with their locale keys', () => {
    const empty = parseWithZod(form([['intent', 'create-export'], ['name', '   ']]), { schema: CreateExportSchema })
    expect(empty.status === 'error' && empty.error?.name).toEqual([EXPORT_ERROR_KEYS.name_required])
    const long = parseWithZod(form([['intent', 'create-export'], ['name', 'é'.repeat(121)]]), { schema: CreateExportSchema })
    expect(long.status === 'error' && long.error?.name).toEqual([EXPORT_ERROR_KEYS.name_too_long])
    expect(parseWithZod(form([['intent', 'create-export'], ['name', '😀'.repeat(120)]]), { schema: CreateExportSchema }).status).toBe('success')
  })
  it('leaves "nothing chosen" to the toggle rules and the service (they need the country)', () => {
    const submission = parseWithZod(form([['intent', 'create-export'], ['name', 'x']]), { schema: CreateExportSchema })
    expect(submission.status === 'success' && submission.value.options).toEqual([])
  })
})

describe('export detail commands', () => {
  it('tells the forms apart by intent', () => {
    const add = parseWithZod(form([['intent', 'add-enrichment'], ['options', 'phone'], ['options', 'website']]), { schema: ExportDetailCommandSchema })
    expect(add.status === 'success' && add.value).toEqual({ intent: 'add-enrichment', options: ['phone', 'website'] })
    expect(parseWithZod(form([['intent', 'resume']]), { schema: ExportDetailCommandSchema }).status).toBe('success')
    expect(parseWithZod(form([['intent', 'delete']]), { schema: ExportDetailCommandSchema }).status).toBe('success')
  })
  it('refuses an unknown or missing intent', () => {
    expect(parseWithZod(form([['intent', 'explode']]), { schema: ExportDetailCommandSchema }).status).toBe('error')
    expect(parseWithZod(form([]), { schema: ExportDetailCommandSchema }).status).toBe('error')
  })
})

describe('API bodies', () => {
  it('an export id is a UUID', () => {
    expect(ExportIdSchema.safeParse(UUID).success).toBe(true)
    for (const bad of ["x' or 1=1--", '', [UUID], 42, undefined]) expect(ExportIdSchema.safeParse(bad).success).toBe(false)
  })
  it('queue / resume read {exportId}', () => {
    expect(ExportRefBodySchema.parse({ exportId: UUID, userId: 'u' })).toEqual({ exportId: UUID })
    expect(ExportRefBodySchema.safeParse({ exportId: [1] }).success).toBe(false)
  })
  it('add-enrichment reads {enrichmentOptions: {type: true}}', () => {
    expect(AddEnrichmentBodySchema.parse({ enrichmentOptions: { phone: true, social: true } })).toEqual({ enrichmentOptions: ['phone', 'social'] })
    expect(AddEnrichmentBodySchema.safeParse({ enrichmentOptions: 'all' }).success).toBe(false)
    expect(AddEnrichmentBodySchema.safeParse({}).success).toBe(false)
  })
})

describe('one error table, in the domain', () => {
  it('maps codes to keys, unknown codes to the fallback', () => {
    expect(exportErrorMessageKey('not_found', 'exports.errors.deleteFailed')).toBe('exports.errors.notFound')
    expect(exportErrorMessageKey('something_else', 'exports.errors.deleteFailed')).toBe('exports.errors.deleteFailed')
    expect(exportErrorMessageKey(undefined, 'common.error')).toBe('common.error')
    expect(plansHint('insufficient_credits')).toEqual({ plansUrl: '/subscription' })
  })
})

describe('export list status filter', () => {
  it('lists the SPEC §2 values in its order', () => {
    expect(EXPORT_STATUS_FILTERS).toEqual(['all', 'completed', 'processing', 'pending', 'failed', 'interrupted'])
  })
  it('reads ?status=: absent is all, unknown or empty is refused', () => {
    expect(ExportStatusFilterSchema.parse(null)).toBe('all')
    expect(ExportStatusFilterSchema.parse('failed')).toBe('failed')
    expect(ExportStatusFilterSchema.safeParse('').success).toBe(false)
    expect(ExportStatusFilterSchema.safeParse('done').success).toBe(false)
  })
})

describe('resume banner', () => {
  it('is the interrupted banner: only interrupted exports that can be resumed', () => {
    expect(offersResume({ status: 'interrupted', can_resume: true })).toBe(true)
    expect(offersResume({ status: 'interrupted', can_resume: false })).toBe(false)
    expect(offersResume({ status: 'failed', can_resume: true })).toBe(false)
  })
})

describe('export from the registry (/companies)', () => {
  const fields = (filters: string): Array<[string, string]> => [
    ['intent', 'create-registry-export'],
    ['name', 'Boulangeries du Finistère'],
    ['options', 'phone'],
    ['filters', filters],
  ]

  it('reads the page’s filters from the hidden field, with the registry schema’s defaults', () => {
    const submission = parseWithZod(form(fields(JSON.stringify({ nafCodes: ['10.71c'], place: { kind: 'department', code: '29' } }))), { schema: CreateRegistryExportSchema })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value.filters).toEqual({ nafCodes: ['10.71C'], place: { kind: 'department', code: '29' }, headcountBands: [], legalForms: [], activeOnly: true, labels: [] })
    expect(submission.value.options).toEqual(['phone'])
  })

  it('refuses filters that are not JSON or not registry filters with one localized message', () => {
    for (const bad of ['{', JSON.stringify({ place: { kind: 'department', code: 'Finistère' } }), '']) {
      const submission = parseWithZod(form(fields(bad)), { schema: CreateRegistryExportSchema })
      expect(submission.status).toBe('error')
      if (submission.status !== 'error') continue
      expect(submission.error?.filters).toEqual(['companies.errors.invalidFilters'])
    }
  })
})
