/**
 * Select lists over a lead (leads alias l) in one export (export_leads alias el) that the read models (views.ts)
 * and the download (download.ts) share: what the enrichment types fill, and their statuses.
 */
import { ENRICHED_LEAD_COLUMNS, STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'

export const ENRICHED_LEAD_SELECT = ENRICHED_LEAD_COLUMNS.map((column) => `l.${column}` as const)
export const STATUS_SELECT = STATUS_COLUMNS.map((column) => `el.${column}` as const)
