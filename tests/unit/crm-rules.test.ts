// The CRM push's pure rules (app/domain/crm.ts, crm-http.ts's windows): the dedupe keys a business is found again by,
// what a mapping writes over a CRM's values, the do-not-contact list at push time, and budgets that never exceed a
// CRM's rolling limit.
import { describe, expect, it } from 'vitest'
import { fixedWindowWithin } from '#app/.server/integrations/crm-http.ts'
import type { ApiLead } from '#app/domain/api-lead.ts'
import { allowedRecord } from '#app/domain/crm-opt-outs.ts'
import {
  changesAnything,
  CrmConnectFieldsSchema,
  CrmPushFormSchema,
  DEFAULT_CRM_MAPPING,
  dedupeKeys,
  readCrmMapping,
  spreadsheetIdOf,
  toCrmRecord,
  valuesToWrite,
} from '#app/domain/crm.ts'
import { indexDncList, parseDncEntry } from '#app/domain/do-not-contact.ts'

const LEAD_ID = '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77'

const found = { page: 'https://boulangerie-paul.fr/contact', found_at: '2026-12-01T10:00:00.000Z' }
const status = { status: 'success' as const, reused_at: null }

function lead(overrides: Partial<ApiLead> = {}, registry: { siren?: string | null; siret?: string | null } | null = null): ApiLead {
  return {
    id: LEAD_ID,
    position: 0,
    name: 'Boulangerie Paul',
    full_address: '12 rue de la Paix, 75002 Paris',
    city: 'Paris',
    postal_code: '75002',
    country_code: 'FR',
    phone: '01 23 45 67 89',
    phone_e164: '+33123456789',
    website: 'https://www.Boulangerie-Paul.fr/accueil',
    latitude: null,
    longitude: null,
    rating: 4.5,
    review_count: 12,
    business_types: ['bakery'],
    google_maps_url: null,
    working_hours: null,
    operational_state: null,
    description: null,
    source: 'osm',
    source_id: 'node/123',
    source_url: 'https://www.openstreetmap.org/node/123',
    enrichments: {
      phone: null,
      website: null,
      email: {
        ...status,
        email: [
          { address: 'Contact@Boulangerie-Paul.fr', quality: { status: 'valid', reason: null, role: true, webmail: false, checked_at: null }, source: found },
          { address: 'jean@boulangerie-paul.fr', quality: null, source: found },
        ],
      },
      technologies: { ...status, technologies: { cms: ['WordPress'], analytics: ['Matomo', 'Google Analytics'] }, source: null },
      social: null,
      admin_fr_info: registry
        ? ({ ...status, siren: registry.siren ?? null, siret: registry.siret ?? null, naf_code: '10.71C', headcount: '1 ou 2 salariés', source: null } as unknown as NonNullable<ApiLead['enrichments']['admin_fr_info']>)
        : null,
      ...overrides.enrichments,
    },
    ...overrides,
    ...(overrides.enrichments ? { enrichments: { ...overrides.enrichments } } : {}),
  } as ApiLead
}

describe('dedupe keys', () => {
  it('name the establishment first, then the company, the site and the LeadAtlas id', () => {
    expect(dedupeKeys(lead({}, { siren: '552100554', siret: '55210055400013' }))).toEqual(['siret:55210055400013', 'siren:552100554', 'domain:boulangerie-paul.fr', `id:${LEAD_ID}`])
    expect(dedupeKeys(lead({}, null))).toEqual(['domain:boulangerie-paul.fr', `id:${LEAD_ID}`])
    expect(dedupeKeys(lead({ website: null }, null))).toEqual([`id:${LEAD_ID}`])
  })

  it('give a record its first key and every alias, so an export with registry data finds the company one without made', () => {
    const withoutRegistry = toCrmRecord(lead({}, null))
    const withRegistry = toCrmRecord(lead({}, { siren: '552100554', siret: null }))
    expect(withoutRegistry.key).toBe('domain:boulangerie-paul.fr')
    expect(withRegistry.key).toBe('siren:552100554')
    expect(withRegistry.aliases).toContain(withoutRegistry.key)
  })
})

describe('the record a lead gives a CRM', () => {
  it('carries only values that exist, phones in E.164, emails lowercased, technologies listed once and where it was found', () => {
    const record = toCrmRecord(lead({}, { siren: '552100554', siret: '55210055400013' }))
    expect(record.company).toMatchObject({ name: 'Boulangerie Paul', phone: '+33123456789', domain: 'boulangerie-paul.fr', siren: '552100554', naf_code: '10.71C', rating: '4.5', leadatlas_id: LEAD_ID })
    expect(record.company.technologies).toBe('Google Analytics, Matomo, WordPress')
    expect(record.company.provenance).toContain('found on: https://boulangerie-paul.fr/contact')
    expect(record.company).not.toHaveProperty('facebook')
    expect(record.contacts).toEqual([
      { email: 'contact@boulangerie-paul.fr', quality: 'valid' },
      { email: 'jean@boulangerie-paul.fr', quality: null },
    ])
  })
})

describe('what a mapping writes', () => {
  const record = toCrmRecord(lead({}, null))

  it('writes every field into a new record, but never a skipped one', () => {
    const mapping = { ...DEFAULT_CRM_MAPPING, phone: 'skip' as const }
    const values = valuesToWrite(record, mapping)
    expect(values).not.toHaveProperty('phone')
    expect(values.name).toBe('Boulangerie Paul')
  })

  it('keeps a value the team typed in the CRM for a fill_empty field, and replaces an overwrite one', () => {
    const existing = { name: 'Paul (client depuis 2019)', phone: '+33 6 00 00 00 00', city: 'Lyon' }
    const mapping = { ...DEFAULT_CRM_MAPPING, name: 'fill_empty' as const, city: 'overwrite' as const }
    const values = valuesToWrite(record, mapping, existing)
    expect(values).not.toHaveProperty('name')
    expect(values).not.toHaveProperty('phone')
    expect(values.city).toBe('Paris')
  })

  it('always writes the LeadAtlas id, whatever the mapping says', () => {
    expect(valuesToWrite(record, { ...DEFAULT_CRM_MAPPING, leadatlas_id: 'skip' }).leadatlas_id).toBe(LEAD_ID)
  })

  it('tells an unchanged record from a changed one', () => {
    const values = valuesToWrite(record, DEFAULT_CRM_MAPPING)
    expect(changesAnything(values, values)).toBe(false)
    expect(changesAnything(values, { ...values, city: 'Lyon' })).toBe(true)
  })

  it('reads a stored mapping leniently: unknown fields dropped, missing or invalid ones at their default', () => {
    const mapping = readCrmMapping({ phone: 'skip', city: 'bogus', nonsense: 'overwrite' })
    expect(mapping.phone).toBe('skip')
    expect(mapping.city).toBe(DEFAULT_CRM_MAPPING.city)
    expect(mapping).not.toHaveProperty('nonsense')
  })
})

describe('the do-not-contact list at push time', () => {
  const index = (...entries: string[]) => indexDncList(entries.map((entry) => parseDncEntry(entry)!))

  it('leaves out a listed business, keeps the others, and drops only the listed addresses', () => {
    const item = lead({}, { siren: '552100554', siret: null })
    const record = toCrmRecord(item)
    expect(allowedRecord(record, item, index('552 100 554'))).toBeNull()
    expect(allowedRecord(record, item, index('osm:node/123'))).toBeNull()
    expect(allowedRecord(record, item, index('boulangerie-paul.fr'))).toBeNull()
    const kept = allowedRecord(record, item, index('jean@boulangerie-paul.fr'))
    expect(kept?.contacts.map((contact) => contact.email)).toEqual(['contact@boulangerie-paul.fr'])
    expect(allowedRecord(record, item, index('someone@else.fr'))).toEqual(record)
  })
})

describe('forms', () => {
  it('reads a spreadsheet from its URL or id, and refuses anything else', () => {
    expect(spreadsheetIdOf('https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit#gid=0')).toBe('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')
    expect(spreadsheetIdOf('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')).toBe('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')
    expect(spreadsheetIdOf('http://169.254.169.254/latest')).toBeNull()
  })

  it('asks Google Sheets for its spreadsheet, and refuses unknown fields in the API body', () => {
    expect(CrmConnectFieldsSchema.safeParse({ provider: 'sheets', label: 'Sheet', secret: '{}' }).success).toBe(false)
    expect(CrmConnectFieldsSchema.safeParse({ provider: 'hubspot', label: 'Sales', secret: 'pat-eu1-x', hasWebsite: true }).success).toBe(false)
    expect(CrmConnectFieldsSchema.safeParse({ provider: 'hubspot', label: 'Sales', secret: 'pat-eu1-x' }).success).toBe(true)
  })

  it('asks for at least one ticked lead when pushing the selected ones', () => {
    const connectionId = LEAD_ID
    expect(CrmPushFormSchema.safeParse({ connectionId, scope: 'selected' }).success).toBe(false)
    expect(CrmPushFormSchema.safeParse({ connectionId, scope: 'selected', leadIds: [LEAD_ID] }).success).toBe(true)
    expect(CrmPushFormSchema.safeParse({ connectionId, scope: 'all' }).success).toBe(true)
  })
})

describe('budgets in fixed windows', () => {
  it('never let a rolling window see more than the CRM allows', () => {
    for (const budget of [
      { limit: 100, windowMs: 10_000 },
      { limit: 20, windowMs: 2_000 },
      { limit: 60, windowMs: 60_000 },
      { limit: 3, windowMs: 1_000 },
    ]) {
      const fixed = fixedWindowWithin(budget)
      // A rolling window of windowMs overlaps at most ⌈windowMs / fixed.windowMs⌉ + 1 fixed windows.
      const overlapped = Math.ceil(budget.windowMs / fixed.windowMs) + 1
      expect(overlapped * fixed.limit).toBeLessThanOrEqual(budget.limit)
      expect(fixed.limit).toBeGreaterThan(0)
    }
    expect(fixedWindowWithin({ limit: 10_000, windowMs: 86_400_000 })).toEqual({ limit: 10_000, windowMs: 86_400_000 })
  })
})
