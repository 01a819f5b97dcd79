import { describe, expect, it } from 'vitest'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import {
  canAddEnrichment,
  canDownload,
  canResume,
  deleteWarnsRunning,
  EXPORT_ERROR_CODES,
  EXPORT_ERROR_KEYS,
  EXPORT_ERROR_MESSAGE_KEYS,
  EXPORT_ERROR_STATUS,
  exportErrorKey,
  hasGeography,
  isExportErrorCode,
  progressPercentage,
  showProgressBar,
  statusBadge,
  validateAddEnrichment,
  validateCreateExport,
} from '#app/domain/exports.ts'

const criteria = { sector: 'shop/bakery', country: 'France', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
const emailOnly = { ...NO_ENRICHMENT, email: true }

describe('error codes → i18n keys', () => {
  it('maps the SPEC §5/§8 codes to their keys', () => {
    expect(exportErrorKey('name_required')).toBe('exports.errors.nameRequired')
    expect(exportErrorKey('no_enrichment')).toBe('exports.errors.noEnrichment')
    expect(exportErrorKey('unauthenticated')).toBe('exports.errors.unauthenticated')
    expect(exportErrorKey('insufficient_credits')).toBe('exports.errors.insufficientCredits')
    expect(exportErrorKey('no_geography')).toBe('exports.errors.noGeography')
    expect(exportErrorKey('add_enrichment_none')).toBe('exports.errors.selectOne')
    expect(exportErrorKey('not_found')).toBe('exports.errors.notFound')
  })
  it('every code has a key under exports.errors and an HTTP status', () => {
    for (const code of EXPORT_ERROR_CODES) {
      expect(EXPORT_ERROR_KEYS[code]).toMatch(/^exports\.errors\.[a-zA-Z]+$/)
      expect(EXPORT_ERROR_STATUS[code]).toBeGreaterThanOrEqual(400)
      expect(isExportErrorCode(code)).toBe(true)
    }
    expect(new Set(EXPORT_ERROR_MESSAGE_KEYS).size).toBe(EXPORT_ERROR_CODES.length)
    expect(isExportErrorCode('nope')).toBe(false)
    expect(EXPORT_ERROR_STATUS.not_found).toBe(404)
    expect(EXPORT_ERROR_STATUS.unauthenticated).toBe(401)
  })
})

describe('validateCreateExport (SPEC §5 Export)', () => {
  it('accepts a complete export and trims the name', () => {
    const result = validateCreateExport({ name: '  Bakeries Lyon ', criteria, enrichmentOptions: emailOnly })
    expect(result).toEqual({ ok: true, name: 'Bakeries Lyon', enrichmentOptions: emailOnly, france: true })
  })
  it('requires a name of at most 120 characters', () => {
    expect(validateCreateExport({ name: '   ', criteria, enrichmentOptions: emailOnly })).toMatchObject({ ok: false, code: 'name_required' })
    expect(validateCreateExport({ name: 'x'.repeat(121), criteria, enrichmentOptions: emailOnly })).toMatchObject({ ok: false, code: 'name_too_long' })
    expect(validateCreateExport({ name: 'é'.repeat(120), criteria, enrichmentOptions: emailOnly }).ok).toBe(true)
  })
  it('requires an enrichment option, after the toggle rules', () => {
    expect(validateCreateExport({ name: 'a', criteria, enrichmentOptions: NO_ENRICHMENT })).toMatchObject({ ok: false, code: 'no_enrichment' })
    // technologies alone is switched off (needs website); admin_fr_info alone outside France too.
    expect(validateCreateExport({ name: 'a', criteria, enrichmentOptions: { ...NO_ENRICHMENT, technologies: true } })).toMatchObject({ code: 'no_enrichment' })
    const spain = { ...criteria, country: 'Spain', countryCode: 'ES' }
    expect(validateCreateExport({ name: 'a', criteria: spain, enrichmentOptions: { ...NO_ENRICHMENT, admin_fr_info: true } })).toMatchObject({ code: 'no_enrichment' })
    const fr = validateCreateExport({ name: 'a', criteria, enrichmentOptions: { ...NO_ENRICHMENT, admin_fr_info: true, technologies: true } })
    expect(fr).toMatchObject({ ok: true, enrichmentOptions: { admin_fr_info: true, technologies: false } })
  })
  it('requires one geographic level', () => {
    const none = { sector: 'x', country: '', region: '', department: '', city: ' ' }
    expect(hasGeography(none)).toBe(false)
    expect(hasGeography({ ...none, city: 'Lyon' })).toBe(true)
    expect(validateCreateExport({ name: 'a', criteria: none, enrichmentOptions: emailOnly })).toMatchObject({ ok: false, code: 'no_geography' })
  })
  it('reports every failing field, the first one as `code`', () => {
    const result = validateCreateExport({ name: '', criteria: { sector: '', country: '', region: '', department: '', city: '' }, enrichmentOptions: NO_ENRICHMENT })
    expect(result).toEqual({
      ok: false,
      code: 'name_required',
      codes: ['name_required', 'no_enrichment', 'no_geography'],
      fieldErrors: { name: 'name_required', enrichmentOptions: 'no_enrichment', geography: 'no_geography' },
    })
  })
})

describe('validateAddEnrichment (SPEC §5 Add enrichment)', () => {
  it('keeps the already enriched options and lists only the new ones', () => {
    const result = validateAddEnrichment(['phone', 'email'], emailOnly, { france: true })
    expect(result).toEqual({ ok: true, options: { ...emailOnly, phone: true }, added: ['phone'] })
  })
  it('nothing new → add_enrichment_none', () => {
    expect(validateAddEnrichment([], emailOnly, { france: true })).toEqual({ ok: false, code: 'add_enrichment_none' })
    expect(validateAddEnrichment(['email'], emailOnly, { france: true })).toEqual({ ok: false, code: 'add_enrichment_none' })
    expect(validateAddEnrichment(['technologies'], emailOnly, { france: true })).toEqual({ ok: false, code: 'add_enrichment_none' })
    expect(validateAddEnrichment(['admin_fr_info'], emailOnly, { france: false })).toEqual({ ok: false, code: 'add_enrichment_none' })
  })
  it('technologies with website is accepted', () => {
    expect(validateAddEnrichment(['technologies', 'website'], emailOnly, { france: false })).toMatchObject({ ok: true, added: ['website', 'technologies'] })
  })
})

describe('progress', () => {
  it('is finished/total in percent with two decimals, clamped', () => {
    expect(progressPercentage(0, 0)).toBe(0)
    expect(progressPercentage(1, 3)).toBe(33.33)
    expect(progressPercentage(2, 3)).toBe(66.67)
    expect(progressPercentage(3, 3)).toBe(100)
    expect(progressPercentage(5, 3)).toBe(100)
    expect(progressPercentage(-1, 3)).toBe(0)
    expect(progressPercentage(Number.NaN, 3)).toBe(0)
    expect(progressPercentage(99_999, 100_000)).toBe(99.99)
  })
  it('the bar shows strictly between 0 and 100', () => {
    expect(showProgressBar(0)).toBe(false)
    expect(showProgressBar(0.01)).toBe(true)
    expect(showProgressBar(99.99)).toBe(true)
    expect(showProgressBar(100)).toBe(false)
    expect(showProgressBar(null)).toBe(false)
  })
})

describe('status rules (SPEC §4)', () => {
  it('pending, processing and unknown values show the processing badge with a spinner', () => {
    expect(statusBadge('pending')).toEqual({ kind: 'processing', spinner: true })
    expect(statusBadge('processing')).toEqual({ kind: 'processing', spinner: true })
    expect(statusBadge('weird')).toEqual({ kind: 'processing', spinner: true })
    expect(statusBadge(null)).toEqual({ kind: 'processing', spinner: true })
    expect(statusBadge('completed')).toEqual({ kind: 'completed', spinner: false })
    expect(statusBadge('failed')).toEqual({ kind: 'failed', spinner: false })
    expect(statusBadge('interrupted')).toEqual({ kind: 'interrupted', spinner: false })
  })
  it('download for completed, interrupted and failed; add enrichment only when completed', () => {
    expect(['pending', 'processing', 'completed', 'failed', 'interrupted'].filter(canDownload)).toEqual(['completed', 'failed', 'interrupted'])
    expect(['pending', 'processing', 'completed', 'failed', 'interrupted'].filter(canAddEnrichment)).toEqual(['completed'])
  })
  it('resume when can_resume and not running', () => {
    expect(canResume({ status: 'interrupted', can_resume: true })).toBe(true)
    expect(canResume({ status: 'failed', can_resume: true })).toBe(true)
    expect(canResume({ status: 'interrupted', can_resume: false })).toBe(false)
    expect(canResume({ status: 'processing', can_resume: true })).toBe(false)
    expect(canResume({ status: 'completed', can_resume: true })).toBe(false)
  })
  it('deleting a running export warns', () => {
    expect(deleteWarnsRunning('processing')).toBe(true)
    expect(deleteWarnsRunning('pending')).toBe(true)
    expect(deleteWarnsRunning('completed')).toBe(false)
  })
})
