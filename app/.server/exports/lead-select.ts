/**
 * Select lists over a lead (leads alias l) in one export (export_leads alias el) that the read models (views.ts)
 * and the download (download.ts) share: what the enrichment types fill, and their statuses.
 */
import { ENRICHED_LEAD_COLUMNS, STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'

export const ENRICHED_LEAD_SELECT = ENRICHED_LEAD_COLUMNS.map((column) => `l.${column}` as const)
export const STATUS_SELECT = STATUS_COLUMNS.map((column) => `el.${column}` as const)

/** Everything a lead's row in a file or in the API's leads list shows: the business, what was found, the statuses. */
export const LEAD_ROW_SELECT = [
  'l.name',
  'l.full_address',
  'l.city',
  'l.postal_code',
  'l.country_code',
  'l.latitude',
  'l.longitude',
  'l.rating',
  'l.review_count',
  'l.business_types',
  'l.google_maps_url',
  'l.working_hours',
  'l.operational_state',
  'l.description',
  'l.place_id',
  'l.source',
  ...ENRICHED_LEAD_SELECT,
  ...STATUS_SELECT,
  'el.reused',
] as const
