import { describe, expect, it } from 'vitest'
import { NO_ENRICHMENT, optionsFromValues } from '#app/domain/enrichment.ts'

describe('optionsFromValues (the checked `options` boxes of a form)', () => {
  it('turns the submitted values into options', () => {
    expect(optionsFromValues(['phone', 'email'], { france: false })).toEqual({ ...NO_ENRICHMENT, phone: true, email: true })
  })

  it('ignores values that are not options', () => {
    expect(optionsFromValues(['phone', 'password', ''], { france: false })).toEqual({ ...NO_ENRICHMENT, phone: true })
  })

  it('applies the toggle rules: technologies needs website, the registry needs France', () => {
    expect(optionsFromValues(['technologies', 'admin_fr_info'], { france: false })).toEqual(NO_ENRICHMENT)
    expect(optionsFromValues(['website', 'technologies', 'admin_fr_info'], { france: true })).toEqual({ ...NO_ENRICHMENT, website: true, technologies: true, admin_fr_info: true })
  })

  it('keeps the options already enriched on', () => {
    expect(optionsFromValues([], { france: false, alreadyEnriched: { ...NO_ENRICHMENT, phone: true } })).toEqual({ ...NO_ENRICHMENT, phone: true })
  })
})
