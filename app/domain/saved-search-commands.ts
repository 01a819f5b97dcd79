// The saved-search commands, each parsed by one schema that the form (conform, in the browser) and the route or API
// (on the server) share. Messages are i18n keys. Pure: no server imports.
import { z } from 'zod'
import { DOWNLOAD_PRESETS } from './download-presets.ts'
import { EnrichmentChoiceSchema } from './export-commands.ts'
import { EXPORT_NAME_MAX } from './exports.ts'
import { isUuid } from './ids.ts'
import { MAX_SAVED_SEARCH_PUSHES } from './crm.ts'
import { registryFiltersSchema } from './registry-search.ts'
import { isTimeZone, SCHEDULE_KINDS } from './saved-searches.ts'

/** Empty is "none"; else a whole number at least 1 (conform sends numbers as text). */
function optionalCount(message: string) {
  return z.coerce.number({ message }).int(message).min(1, message).max(1_000_000, message).optional()
}

const NameSchema = z
  .string({ error: 'savedSearches.errors.nameRequired' })
  .trim()
  .min(1, { error: 'savedSearches.errors.nameRequired' })
  .refine((name) => [...name].length <= EXPORT_NAME_MAX, { error: 'savedSearches.errors.nameTooLong' })

/** What a saved search delivers: name, enrichments, the file's columns, a cap on the leads. */
const DeliveryFields = {
  name: NameSchema,
  options: EnrichmentChoiceSchema.refine((types) => types.length > 0, { error: 'savedSearches.errors.noEnrichment' }),
  preset: z.enum(DOWNLOAD_PRESETS, { error: 'savedSearches.errors.preset' }).default('all'),
  maxLeads: optionalCount('savedSearches.errors.maxLeads'),
}

/**
 * "Save this search" on the search page: the criteria and filters ride along as the search's own fields. The
 * browser's time zone comes along when scripts run (a hidden field), so a schedule set later reads the user's hours;
 * an unknown or missing one is the default's.
 */
export const SaveSearchSchema = z.object({
  intent: z.literal('save-search'),
  ...DeliveryFields,
  timeZone: z
    .string()
    .optional()
    .transform((zone) => (zone && isTimeZone(zone) ? zone : undefined)),
})

const Hour = z.coerce.number({ message: 'savedSearches.errors.hour' }).int('savedSearches.errors.hour').min(0, 'savedSearches.errors.hour').max(23, 'savedSearches.errors.hour')

/** The edit page: delivery, schedule and the per-run credit budget. */
export const UpdateSavedSearchSchema = z
  .object({
    intent: z.literal('update'),
    ...DeliveryFields,
    scheduleKind: z.enum(SCHEDULE_KINDS, { error: 'savedSearches.errors.scheduleKind' }).default('none'),
    weekday: z.coerce.number().int().min(1).max(7).optional(),
    day: z.coerce.number().int().min(1).max(31).optional(),
    hour: Hour.default(8),
    timeZone: z.string({ error: 'savedSearches.errors.timeZone' }).trim().refine(isTimeZone, { error: 'savedSearches.errors.timeZone' }),
    creditBudget: optionalCount('savedSearches.errors.creditBudget'),
    /** The CRM connections each run's new businesses are pushed to ("push every run"). */
    pushTo: z.array(z.string().refine(isUuid, { error: 'integrations.errors.pushTo' })).max(MAX_SAVED_SEARCH_PUSHES, 'integrations.errors.pushTo').default([]),
  })
  .superRefine((value, ctx) => {
    if (value.scheduleKind === 'weekly' && !value.weekday) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'savedSearches.errors.weekday' })
    if (value.scheduleKind === 'monthly' && !value.day) ctx.addIssue({ code: 'custom', path: ['day'], message: 'savedSearches.errors.day' })
  })
export type UpdateSavedSearch = z.output<typeof UpdateSavedSearchSchema>

/** A watch runs by itself: weekly or monthly, never "none". */
export const WATCH_SCHEDULE_KINDS = ['weekly', 'monthly'] as const

/** The registry filters of the page, as one JSON field; the watch sets the creation window of each run itself. */
const WatchFiltersSchema = z.string({ error: 'companies.errors.invalidFilters' }).transform((text, ctx) => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const record = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>), createdAfter: undefined, createdBefore: undefined } : value
  const parsed = registryFiltersSchema.safeParse(record)
  if (parsed.success && parsed.data.labels.length === 0) return parsed.data
  // Labels are not in the registry store the watch reads (companies.errors.labelsWithCreatedAfter).
  ctx.addIssue({ code: 'custom', message: parsed.success ? 'companies.errors.labelsWithCreatedAfter' : 'companies.errors.invalidFilters' })
  return z.NEVER
})

/**
 * "Watch new companies" on `/companies`, and POST /api/v1/saved-searches with kind new_companies (the API builds these
 * fields from its body): the page's registry filters, what each run delivers (registry data always, free; the chosen
 * enrichments for the establishments found on the map) and the schedule, with the edit page's schedule rules.
 */
export const WatchNewCompaniesSchema = z
  .object({
    intent: z.literal('watch-new-companies'),
    name: NameSchema,
    options: EnrichmentChoiceSchema,
    preset: DeliveryFields.preset,
    maxLeads: DeliveryFields.maxLeads,
    filters: WatchFiltersSchema,
    scheduleKind: z.enum(WATCH_SCHEDULE_KINDS, { error: 'savedSearches.errors.watchSchedule' }).default('weekly'),
    weekday: z.coerce.number().int().min(1).max(7).optional(),
    day: z.coerce.number().int().min(1).max(31).optional(),
    hour: Hour.default(8),
    timeZone: z.string({ error: 'savedSearches.errors.timeZone' }).trim().refine(isTimeZone, { error: 'savedSearches.errors.timeZone' }),
  })
  .superRefine((value, ctx) => {
    if (value.scheduleKind === 'weekly' && !value.weekday) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'savedSearches.errors.weekday' })
    if (value.scheduleKind === 'monthly' && !value.day) ctx.addIssue({ code: 'custom', path: ['day'], message: 'savedSearches.errors.day' })
  })
export type WatchNewCompanies = z.output<typeof WatchNewCompaniesSchema>

const SavedSearchId = z.string().refine(isUuid)

/** The list's buttons, told apart by intent; each names its saved search. */
export const SavedSearchActionSchema = z.discriminatedUnion('intent', [
  // Generated when the page renders, so a double click runs once.
  z.object({ intent: z.literal('run'), id: SavedSearchId, idempotencyKey: z.string().max(200).optional() }),
  z.object({ intent: z.literal('pause'), id: SavedSearchId }),
  z.object({ intent: z.literal('resume'), id: SavedSearchId }),
  z.object({ intent: z.literal('delete'), id: SavedSearchId }),
])
