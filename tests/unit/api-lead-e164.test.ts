// Issue 28 item 11: the API gives every phone in E.164 beside its display value, whatever the request's language.
import { describe, expect, it } from 'vitest'
import { chosenEnrichments, toApiLead, type ApiLeadRow } from '#app/domain/api-lead.ts'
import { phoneE164 } from '#app/domain/lead-format.ts'

describe('phones in E.164', () => {
  it('reads national numbers in the lead country and international ones as written; null when unreadable', () => {
    expect(phoneE164('02 98 00 00 00', 'FR')).toBe('+33298000000')
    expect(phoneE164('+32 2 555 12 12', 'FR')).toBe('+3225551212')
    expect(phoneE164('0041 44 668 18 00', null)).toBe('+41446681800')
    expect(phoneE164('call us', 'FR')).toBeNull()
    expect(phoneE164(null, 'FR')).toBeNull()
  })

  it('are in the lead, main and other numbers alike, the same in both languages', () => {
    const row: ApiLeadRow = {
      id: '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77',
      position: 0,
      name: 'Boulangerie',
      source: 'osm',
      place_id: 'node/1',
      google_maps_url: null,
      updated_at: '2026-11-25T10:00:00.000Z',
      reused: null,
      country_code: 'FR',
      phone: '02 98 00 00 00',
      phone_sources: { '+33 6 12 34 56 78': { page: 'https://example.fr/contact', type: 'mobile' } },
      phone_status: 'success',
    }
    const [en, fr] = (['en', 'fr'] as const).map((lang) => toApiLead(row, chosenEnrichments({ phone: true }), lang))
    expect(en!.phone_e164).toBe('+33298000000')
    expect(en!.enrichments.phone?.other_phones.map((phone) => phone.e164)).toEqual(['+33612345678'])
    expect(fr!.phone_e164).toBe(en!.phone_e164)
    expect(fr!.enrichments.phone).toEqual(en!.enrichments.phone)
  })
})
