// The API's lead keeps up with the downloaded file: every column of the file (all presets, every enrichment) has
// its field in the Lead schema, under the column's key, so a column added to the file without its API field fails here.
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ApiLeadSchema, chosenEnrichments, toApiLead, type ApiLeadRow } from '#app/domain/api-lead.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { adminFrCodes } from '#app/domain/lead-file-values.ts'
import { exportColumns } from '#app/.server/exports/download/columns.ts'

const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

/** Where the API writes a file column whose cell joins several values: in each item of a list. */
const FOLDED: Record<string, string> = {
  email_sources: 'email.source',
  email_checks: 'email.quality',
}

function fieldPaths(schema: z.ZodType, prefix = ''): string[] {
  const inner = schema instanceof z.ZodNullable ? schema.unwrap() : schema
  if (inner instanceof z.ZodArray) return fieldPaths(inner.element as z.ZodType, prefix)
  if (!(inner instanceof z.ZodObject)) return []
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return [path, ...fieldPaths(value, path)]
  })
}

describe('the Lead schema derives from the file', () => {
  test('every file column has its field: the base fields and provenance at the top, each enrichment’s in its block', () => {
    const paths = new Set(fieldPaths(ApiLeadSchema))
    const columns = exportColumns(ALL, 'en', 'all')
    const blockOf = new Map(ENRICHMENT_TABLE.flatMap((entry) => [...entry.fileColumns.map((column) => [column.key, entry.key] as const), [entry.statusColumn, entry.key] as const]))
    const missing = columns.flatMap((column) => {
      const block = blockOf.get(column.key)
      const key = FOLDED[column.key] ?? column.key
      const path = !block ? key : column.key === ENRICHMENT_TABLE.find((entry) => entry.key === block)?.statusColumn ? `enrichments.${block}.status` : `enrichments.${block}.${key}`
      return paths.has(path) ? [] : [`${column.key} (${path})`]
    })
    expect(missing).toEqual([])
  })

  test('the example the OpenAPI document shows is a valid Lead', () => {
    const example = (ApiLeadSchema.meta() as { example?: unknown } | undefined)?.example
    expect(example).toBeDefined()
    expect(() => ApiLeadSchema.parse(example)).not.toThrow()
  })

  test('the status of every enrichment type, as the file writes one per type', () => {
    const paths = new Set(fieldPaths(ApiLeadSchema))
    for (const entry of ENRICHMENT_TABLE) expect(paths.has(`enrichments.${entry.key}.status`), entry.key).toBe(true)
  })
})

describe('toApiLead', () => {
  const row: ApiLeadRow = {
    id: '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77',
    position: 3,
    name: 'Garage',
    source: 'google',
    place_id: 'ChIJ123',
    google_maps_url: null,
    updated_at: '2026-11-25T10:00:00Z',
    reused: {},
    phone: '02 98 00 00 00',
    phone_sources: {},
    email: null,
    email_sources: {},
    website: null,
    review_count: '12',
    phone_status: 'success',
  }

  test('a main number the enrichment never listed came with the lead source; values are read as the file reads them', () => {
    const lead = toApiLead(row, chosenEnrichments({ phone: true }), 'en')
    expect(ApiLeadSchema.parse(lead)).toEqual(lead)
    expect(lead.review_count).toBe(12)
    expect(lead.source_url).toBe('https://www.google.com/maps/place/?q=place_id:ChIJ123')
    expect(lead.enrichments.phone).toEqual({
      status: 'success',
      reused_at: null,
      phone_type: null,
      phone_source: { page: 'https://www.google.com/maps/place/?q=place_id:ChIJ123', found_at: '2026-11-25T10:00:00.000Z' },
      other_phones: [],
    })
    expect(lead.enrichments.website).toBeNull()
  })

  test('a site the crawl never reached is not where anything was found: the website is the source listing’s', () => {
    const lead = toApiLead({ ...row, website: 'https://garage.fr', website_status: 'failed', technologies_status: 'not_found', technologies: {} }, chosenEnrichments({ website: true, technologies: true }), 'en')
    expect(lead.enrichments.website?.website_source).toEqual({ page: 'https://www.google.com/maps/place/?q=place_id:ChIJ123', found_at: '2026-11-25T10:00:00.000Z' })
    expect(lead.enrichments.technologies).toEqual({ status: 'not_found', reused_at: null, technologies: {}, source: null })
    const crawled = toApiLead({ ...row, website: 'https://garage.fr', website_status: 'success' }, chosenEnrichments({ website: true }), 'en')
    expect(crawled.enrichments.website?.website_source).toEqual({ page: 'https://garage.fr', found_at: '2026-11-25T10:00:00.000Z' })
  })
})

describe('registry codes beside their labels', () => {
  test('the state and how the company was identified answer their codes, whatever their labels say', () => {
    const labelled = { matched_by: 'registry_map', matched_by_libelle: 'Registre, trouvé sur la carte', results: [{ siren: '552100554', etat_administratif: 'F', etat_administratif_libelle: 'Fermé', siege: { siret: '55210055400013' } }] }
    expect(adminFrCodes(labelled)).toEqual({ administrative_state_code: 'F', matched_by_code: 'registry_map', risk_code: null })
    // A match without results (the site printed a SIRET the registry lacks), and values that are no known code.
    expect(adminFrCodes({ results: [{ siren: '552100554' }], matched_by: 'site' })).toEqual({ administrative_state_code: null, matched_by_code: 'site', risk_code: null })
    expect(adminFrCodes({ etat_administratif: 'Actif', matched_by: 'guess' })).toEqual({ administrative_state_code: null, matched_by_code: null, risk_code: null })
    expect(adminFrCodes(null)).toEqual({ administrative_state_code: null, matched_by_code: null, risk_code: null })
  })
})
