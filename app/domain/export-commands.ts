// The export commands (SPEC §5, §7), each parsed by one schema that the form (conform, in the browser)
// and the route (parseWithZod / safeParse, on the server) share. Pure: no server imports.
import { z } from 'zod'
import { ENRICHMENT_TYPES, type EnrichmentType } from './enrichment.ts'
import { EXPORT_ERROR_KEYS, EXPORT_NAME_MAX, EXPORT_STATUS_FILTERS } from './exports.ts'
import { isUuid } from './ids.ts'
import { registryFiltersSchema } from './registry-search.ts'

/** Unknown names are dropped rather than refused, as optionsFromValues does: the toggle rules (which need the
 * export's country) decide what is kept, and the service what is enough. */
function knownTypes(values: readonly string[]): EnrichmentType[] {
  return ENRICHMENT_TYPES.filter((type) => values.includes(type))
}

/** The chosen enrichment types as a form sends them: one `options` value per checked box (conform makes one value a list). */
export const EnrichmentChoiceSchema = z
  .array(z.string())
  .optional()
  .transform((values) => knownTypes(values ?? []))

/** The same choice as the API sends it (SPEC §7): a map of each chosen type to true. */
export const EnrichmentMapSchema = z.record(z.string(), z.unknown()).transform((map) => knownTypes(Object.keys(map).filter((type) => map[type] === true)))

/** Empty is "no cap of my own"; else a whole number of leads, at least 1 (conform sends numbers as text). */
const MaxLeadsSchema = z.coerce
  .number({ message: 'exports.errors.maxLeadsInvalid' })
  .int('exports.errors.maxLeadsInvalid')
  .min(1, 'exports.errors.maxLeadsInvalid')
  .optional()

/**
 * The export name as the modal's form validates it (conform, client and server), with the same rules
 * and messages as validateCreateExport. Messages are i18n keys.
 */
export const ExportNameSchema = z.object({
  name: z
    .string({ error: EXPORT_ERROR_KEYS.name_required })
    .trim()
    .min(1, { error: EXPORT_ERROR_KEYS.name_required })
    // Counted in characters (code points), like validateCreateExport, not UTF-16 units.
    .refine((name) => [...name].length <= EXPORT_NAME_MAX, { error: EXPORT_ERROR_KEYS.name_too_long }),
})

/**
 * The list's `?status=`: absent means all; anything else unknown (even empty) is a bad request, so a
 * mistyped link says so instead of silently listing everything.
 */
export const ExportStatusFilterSchema = z
  .enum(EXPORT_STATUS_FILTERS)
  .nullable()
  .transform((filter) => filter ?? 'all')

/** "Enrich and export" on the search page. The criteria ride along as the search's own fields (search-schema.ts). */
export const CreateExportSchema = ExportNameSchema.extend({
  intent: z.literal('create-export'),
  options: EnrichmentChoiceSchema,
  // "Only new businesses": a checkbox, so present ("on") or absent.
  onlyNew: z.literal('on').optional().transform((value) => (value === 'on' ? true : undefined)),
  // Generated when the form renders, so a double submit creates one export; the server makes one when missing.
  idempotencyKey: z.string().optional(),
  // Caps the leads (and so the credits) of the export; the upper bound is the server's EXPORT_MAX_LEADS.
  maxLeads: MaxLeadsSchema,
})

/**
 * "Export" on the registry search (`/companies`, issue 22 item 4): the modal's fields of "Enrich and export", and the
 * page's filters as one hidden field (JSON of registryFiltersSchema's input), so the export is of exactly the
 * establishments counted. The server action passes `filters` to createExport as `registry`.
 */
export const CreateRegistryExportSchema = CreateExportSchema.extend({
  intent: z.literal('create-registry-export'),
  filters: z.string({ error: 'companies.errors.invalidFilters' }).transform((text, ctx) => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = undefined
    }
    const parsed = registryFiltersSchema.safeParse(value)
    if (parsed.success) return parsed.data
    // One message for the field: the filters come from the page's own form, already checked there.
    ctx.addIssue({ code: 'custom', message: 'companies.errors.invalidFilters' })
    return z.NEVER
  }),
})

/** "Launch" on a list's confirm page (issue 31): the modal's fields; the list is the page's (its URL). */
export const LaunchListSchema = CreateExportSchema.extend({ intent: z.literal('launch-list') })

export const ResumeCommandSchema = z.object({ intent: z.literal('resume') })
export const DeleteCommandSchema = z.object({ intent: z.literal('delete') })
export const AddEnrichmentCommandSchema = z.object({ intent: z.literal('add-enrichment'), options: EnrichmentChoiceSchema })

/** The export detail page's forms, told apart by the submit button's intent. */
export const ExportDetailCommandSchema = z.discriminatedUnion('intent', [ResumeCommandSchema, AddEnrichmentCommandSchema, DeleteCommandSchema])
export type ExportDetailCommand = z.infer<typeof ExportDetailCommandSchema>

/** A malformed id cannot name an export: the routes answer "not found" (404) for it, as for someone else's. */
export const ExportIdSchema = z.string().refine(isUuid)

/**
 * POST /api/exports/queue and /api/exports/resume: {exportId, userId}. The userId is checked against the
 * session by the route (assertPayloadUser) before this schema runs.
 */
export const ExportRefBodySchema = z.object({ exportId: ExportIdSchema })

/** POST /api/exports/{id}/add-enrichment: {userId, enrichmentOptions: {type: true}}. */
export const AddEnrichmentBodySchema = z.object({ enrichmentOptions: EnrichmentMapSchema })
