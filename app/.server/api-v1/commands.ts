// The request bodies of the export commands, as the API sends them (snake_case JSON). Each maps onto the command the
// forms run (app/.server/exports/service.ts): the rules (name, plan, location, credits, caps, idempotency) live there.
import { z } from 'zod'
import { EnrichmentTypeSchema } from '#app/domain/api-export.ts'
import { MAX_RATING, MAX_REVIEWS, NO_FILTERS, type SearchFilters } from '#app/domain/search-filters.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { registryFiltersSchema, type RegistryFilters } from '#app/domain/registry-search.ts'
import { WebhookUrlSchema } from '#app/domain/webhook-commands.ts'
import { findCategory, getCategory } from '#app/.server/taxonomy/categories.ts'

const PlaceName = z.string().max(200)

/** The category a sector names: its id, or its exact label in either language (whatever language is asked). */
function categoryNamed(sector: string) {
  return getCategory(sector.trim()) ?? findCategory(sector, 'fr') ?? findCategory(sector, 'en')
}

function isKnownSector(sector: string): boolean {
  return sector.trim() === '' || Boolean(categoryNamed(sector))
}

/**
 * The category id a sector names; text naming none is kept (a search saved on the site with free text). A label
 * sent to the API is stored as its id: a saved search answers the id GET /categories gives, and its runs search
 * the same category in either language.
 */
export function sectorId(sector: string): string {
  return categoryNamed(sector)?.id ?? sector
}

export const ApiCriteriaSchema = z
  .object({
    sector: z
      .string()
      .max(200)
      .default('')
      // The search page may search a custom text; the API takes only categories: an unknown one was searched as a
      // made-up category (demo businesses invented for it) instead of being refused.
      .refine(isKnownSector, { message: 'api.v1.unknownSector' })
      .meta({ description: 'A category id from GET /categories (or its exact label in French or English, kept as its id); empty: every category.', example: 'shop-bakery' }),
    country: PlaceName.meta({ example: 'France' }),
    region: PlaceName.optional().meta({ example: 'Bretagne' }),
    department: PlaceName.optional().meta({ example: 'Finistère' }),
    city: PlaceName.optional().meta({ example: 'Brest' }),
  })
  .meta({ id: 'Criteria', description: 'What and where: names as GET /locations gives them. Your plan decides the finest level you must choose.' })

export const ApiFiltersSchema = z
  .object({
    has_website: z.boolean().optional(),
    has_phone: z.boolean().optional(),
    min_rating: z.number().min(0).max(MAX_RATING).optional(),
    min_reviews: z.int().min(0).max(MAX_REVIEWS).optional(),
    exclude_closed: z.boolean().optional().meta({ description: 'Leave out businesses closed in the listing or the company registry.' }),
    exclude_insolvent: z.boolean().optional().meta({ description: 'Leave out companies in a collective procedure (sauvegarde, redressement or liquidation judiciaire) per their BODACC announcements. France only.' }),
    exclude_radiated: z.boolean().optional().meta({ description: 'Leave out companies struck off the trade register per their BODACC announcements. France only.' }),
  })
  .meta({ id: 'Filters', description: 'Applied before anything is charged: businesses that do not match are never exported.' })

export type ApiCriteria = z.output<typeof ApiCriteriaSchema>
export type ApiFilters = z.output<typeof ApiFiltersSchema>

export function toSearchCriteria(criteria: ApiCriteria): SearchCriteria {
  return { sector: sectorId(criteria.sector), country: criteria.country, region: criteria.region ?? '', department: criteria.department ?? '', city: criteria.city ?? '' }
}

export function toSearchFilters(filters: ApiFilters | undefined): SearchFilters {
  if (!filters) return NO_FILTERS
  return {
    hasWebsite: filters.has_website ?? false,
    hasPhone: filters.has_phone ?? false,
    minRating: filters.min_rating ?? null,
    minReviews: filters.min_reviews ?? null,
    excludeClosed: filters.exclude_closed ?? false,
    excludeInsolvent: filters.exclude_insolvent ?? false,
    excludeRadiated: filters.exclude_radiated ?? false,
  }
}

const registryShape = registryFiltersSchema.shape

/**
 * The registry filters of `/companies` in the API's snake_case; their rules and defaults are registryFiltersSchema's
 * (optional here so the document shows them as such).
 */
export const ApiRegistryFiltersSchema = z
  .object({
    naf_codes: registryShape.nafCodes.unwrap().optional().meta({ description: 'NAF rév. 2 activity codes (any of them); none: every activity.', example: ['10.71C'] }),
    place: registryShape.place.unwrap().optional().meta({
      description: 'Where, as INSEE codes: `region`, `department`, `commune` or `postcode`. Your plan decides the finest level you must choose.',
      example: { kind: 'department', code: '29' },
    }),
    headcount_bands: registryShape.headcountBands.unwrap().optional().meta({ description: 'INSEE headcount bands ("tranches d’effectif").', example: ['01', '02'] }),
    legal_forms: registryShape.legalForms.unwrap().optional(),
    active_only: registryShape.activeOnly.unwrap().optional().meta({ description: 'Active establishments of active companies only (default).' }),
    labels: registryShape.labels.unwrap().optional(),
  })
  .meta({
    id: 'RegistryFilters',
    description:
      'Export from the company registry: each establishment becomes a lead with its registry data, matched to the map for phone, website, rating and reviews (`match_confidence`); one not found online is delivered with its registry data alone.',
  })

/** A stored registry filters' object (registryFiltersSchema's) in the API's snake_case; unreadable: every default. */
export function toApiRegistryFilters(stored: Record<string, unknown>): z.output<typeof ApiRegistryFiltersSchema> {
  const filters = registryFiltersSchema.safeParse(stored).data ?? registryFiltersSchema.parse({})
  return {
    naf_codes: filters.nafCodes,
    place: filters.place,
    headcount_bands: filters.headcountBands,
    legal_forms: filters.legalForms,
    active_only: filters.activeOnly,
    labels: filters.labels,
  }
}

export function toRegistryFilters(filters: z.output<typeof ApiRegistryFiltersSchema>): RegistryFilters {
  return registryFiltersSchema.parse({
    nafCodes: filters.naf_codes,
    place: filters.place,
    headcountBands: filters.headcount_bands,
    legalForms: filters.legal_forms,
    activeOnly: filters.active_only,
    labels: filters.labels,
  })
}

export const EnrichmentListSchema = z.array(EnrichmentTypeSchema).min(1).max(12)

export const CreateExportBodySchema = z
  .object({
    name: z.string().max(1000).meta({ example: 'Bakeries – Brest' }),
    criteria: ApiCriteriaSchema.optional().meta({ description: 'A map-first export: what and where. Send it or `registry`, not both.' }),
    registry: ApiRegistryFiltersSchema.optional(),
    filters: ApiFiltersSchema.optional(),
    enrichments: EnrichmentListSchema.meta({ example: ['phone', 'website', 'email'] }),
    max_leads: z.int().min(1).optional().meta({ description: 'Caps the leads, and so the credits, of this export.' }),
    only_new: z.boolean().optional().meta({ description: 'Only businesses none of your exports delivered before.' }),
    webhook_url: WebhookUrlSchema.optional().meta({
      description:
        'Called once when the export ends: one signed `export.completed`, `export.failed` or `export.interrupted` delivery (each at most once), verified with the `webhook.secret` of the answer. https on a public address, as for webhook endpoints.',
      example: 'https://example.com/leadatlas/callback',
    }),
  })
  .refine((body) => (body.criteria === undefined) !== (body.registry === undefined), { message: 'api.v1.criteriaOrRegistry', path: ['criteria'] })
  .meta({
    id: 'CreateExport',
    examples: [
      { name: 'Bakeries – Brest', criteria: { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }, enrichments: ['phone', 'website', 'email'] },
      { name: 'Registry bakeries – Finistère', registry: { naf_codes: ['10.71C'], place: { kind: 'department', code: '29' } }, enrichments: ['phone', 'email'], max_leads: 500 },
    ],
  })

export const PreviewBodySchema = z
  .object({ criteria: ApiCriteriaSchema, filters: ApiFiltersSchema.optional(), enrichments: EnrichmentListSchema.optional() })
  .meta({ id: 'PreviewRequest' })

export const AddEnrichmentsBodySchema = z.object({ enrichments: EnrichmentListSchema }).meta({ id: 'AddEnrichments' })
