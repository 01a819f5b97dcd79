// The export as the public API and webhooks show it (../shared/API.md): one schema, described in the OpenAPI
// document and used by every answer and event that carries an export. Pure: no server imports.
import { z } from 'zod'
import { ENRICHMENT_TYPES, type EnrichmentType } from './enrichment-types.ts'
import { normalizeEnrichmentOptions } from './enrichment.ts'

export const API_EXPORT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'interrupted'] as const
const API_PROGRESS_PHASES = ['search', 'enrichment', 'done'] as const

export const EnrichmentTypeSchema = z.enum(ENRICHMENT_TYPES as [EnrichmentType, ...EnrichmentType[]]).meta({
  id: 'EnrichmentType',
  description: 'An enrichment: phone, website, email, technologies, social, admin_fr_info (French registry data).',
})

export const ApiExportSchema = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ example: 'Bakeries – Brest' }),
    status: z.enum(API_EXPORT_STATUSES),
    progress: z.object({
      phase: z.enum(API_PROGRESS_PHASES),
      done: z.int().min(0).meta({ description: 'Finished tasks (enrichment) or businesses found so far (search).' }),
      total: z.int().min(0).meta({ description: 'All tasks (enrichment) or the lead cap (search).' }),
    }),
    lead_count: z.int().min(0),
    credits_used: z.int().min(0),
    enrichments: z.array(EnrichmentTypeSchema),
    created_at: z.iso.datetime({ offset: true }),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    saved_search_id: z.uuid().nullable().meta({ description: 'The saved search this export is a run of, if any.' }),
    webhook_url: z.string().nullable().meta({ description: 'The callback URL it was created with (`webhook_url`), if any.', example: null }),
  })
  .meta({ id: 'Export', description: 'An export: a search and the enrichments of its leads.' })

export type ApiExport = z.infer<typeof ApiExportSchema>

/** The columns of `exports` the object is built from. */
export interface ApiExportRow {
  id: string
  name: string
  status: string
  progress_info: unknown
  progress_percentage: number
  lead_count: number
  total_credits_used: number
  enrichment_options: unknown
  created_at: Date | string
  completed_at: Date | string | null
  saved_search_id: string | null
  webhook_url: string | null
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

function phaseOf(row: ApiExportRow): ApiExport['progress'] {
  const info = (row.progress_info ?? {}) as { phase?: unknown; done?: unknown; total?: unknown }
  const phase = API_PROGRESS_PHASES.find((known) => known === info.phase) ?? (row.status === 'completed' ? 'done' : 'search')
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0)
  return { phase, done: count(info.done), total: count(info.total) }
}

export function toApiExport(row: ApiExportRow): ApiExport {
  const options = normalizeEnrichmentOptions(row.enrichment_options)
  return {
    id: row.id,
    name: row.name,
    status: API_EXPORT_STATUSES.find((status) => status === row.status) ?? 'pending',
    progress: phaseOf(row),
    lead_count: row.lead_count,
    credits_used: row.total_credits_used,
    enrichments: ENRICHMENT_TYPES.filter((type) => options[type]),
    created_at: iso(row.created_at),
    completed_at: row.completed_at ? iso(row.completed_at) : null,
    saved_search_id: row.saved_search_id,
    webhook_url: row.webhook_url,
  }
}
