// Saved searches: list them, and run one now — the same run command as the list's "Run now" button and the scheduler
// (app/.server/saved-searches/run.ts), as the key's owner.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { withUser } from '#app/.server/db.ts'
import { countryCodeFromName } from '#app/.server/search/locations/countries.ts'
import { loadApiExport } from '#app/.server/exports/api-export.ts'
import { holdsIdempotencyKey } from '#app/.server/exports/service.ts'
import { saveSearch, updateSavedSearchCommand } from '#app/.server/saved-searches/commands.ts'
import { runSavedSearch } from '#app/.server/saved-searches/run.ts'
import { deleteSavedSearch, getSavedSearch, listSavedSearches, setPaused } from '#app/.server/saved-searches/store.ts'
import { UpdateSavedSearchSchema, WatchNewCompaniesSchema } from '#app/domain/saved-search-commands.ts'
import { saveWatch } from '#app/.server/saved-searches/watch-commands.ts'
import { ApiCriteriaSchema, ApiFiltersSchema, ApiRegistryFiltersSchema, EnrichmentListSchema, sectorId, toApiRegistryFilters, toRegistryFilters, toSearchCriteria, toSearchFilters } from '../commands.ts'
import { ApiLangSchema, langParam } from '../lang.ts'
import { EXPORT_LOCATION } from './exports.ts'
import type { ApiContext } from '../operation.ts'
import { ApiExportSchema, EnrichmentTypeSchema } from '#app/domain/api-export.ts'
import { DOWNLOAD_PRESETS } from '#app/domain/download-presets.ts'
import { EXPORT_ERROR_STATUS } from '#app/domain/exports.ts'
import type { SavedSearch } from '#app/domain/saved-searches.ts'
import { SCHEDULE_KINDS } from '#app/domain/saved-searches.ts'
import { MAX_SAVED_SEARCH_PUSHES } from '#app/domain/crm.ts'
import { CreatedCursor, CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { exportProblem } from '../export-failure.ts'
import { defineOperation, locationOf } from '../operation.ts'
import { apiProblem } from '../problem.ts'
import { CREATE_SAVED_SEARCH_EXAMPLE } from './saved-search-example.ts'

const Instant = z.iso.datetime({ offset: true })

const ApiSavedSearchSchema = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ example: 'Bakeries – Brest, weekly' }),
    kind: z.enum(['map', 'new_companies']).meta({ description: '`map`: a search of the map (`criteria`); `new_companies`: a watch of the registry\'s newly created establishments (`registry`).' }),
    registry: ApiRegistryFiltersSchema.nullable().meta({ description: 'A `new_companies` watch\'s registry filters; each run delivers the establishments created since the previous run.' }),
    waiting_online: z.int().min(0).meta({ description: 'A watch\'s establishments delivered before they were online, looked for on the map again 7 and 30 days after.', example: 3 }),
    criteria: z.object({
      sector: z.string().meta({ description: 'The category id (GET /categories), also when it was sent as a label; empty: every category. A search saved on the site with free text keeps its text.', example: 'shop-bakery' }),
      country: z.string().meta({ example: 'France' }),
      country_code: z
        .string()
        .regex(/^[A-Z]{2}$/)
        .nullable()
        .meta({ description: 'ISO 3166-1 alpha-2 code of the country; the names are as they were saved.', example: 'FR' }),
      region: z.string().meta({ example: 'Bretagne' }),
      department: z.string().meta({ example: 'Finistère' }),
      city: z.string().meta({ example: 'Brest' }),
    }),
    filters: z.object({
      has_website: z.boolean(),
      has_phone: z.boolean(),
      min_rating: z.number().min(0).max(5).nullable().meta({ example: 4 }),
      min_reviews: z.int().min(0).nullable().meta({ example: 10 }),
      exclude_closed: z.boolean(),
      exclude_insolvent: z.boolean(),
      exclude_radiated: z.boolean(),
    }),
    enrichments: z.array(EnrichmentTypeSchema),
    preset: z.enum(DOWNLOAD_PRESETS).meta({ description: 'The download columns of its runs: all, contacts or crm.' }),
    max_leads: z.int().min(1).nullable().meta({ example: 500 }),
    credit_budget: z.int().min(1).nullable().meta({ description: 'Credits one run may spend at most (it caps the leads); null: no cap but your balance.', example: 1000 }),
    push_connection_ids: z.array(z.uuid()).meta({ description: "CRM connections each run's new businesses are pushed to." }),
    schedule: z.object({
      kind: z.enum(SCHEDULE_KINDS),
      weekday: z.int().min(1).max(7).nullable().meta({ description: 'Weekly: 1 = Monday … 7 = Sunday.' }),
      day: z.int().min(1).max(31).nullable().meta({ description: 'Monthly: the day of the month (a shorter month runs on its last day).' }),
      hour: z.int().min(0).max(23),
      time_zone: z.string().meta({ example: 'Europe/Paris' }),
    }),
    lang: ApiLangSchema.meta({ description: 'The language its runs search in (the `lang` of POST /exports), set by `?lang` when it is saved or changed.' }),
    paused: z.boolean(),
    next_run_at: Instant.nullable().meta({ description: 'Null without a schedule or while paused.' }),
    last_run: z
      .object({
        at: Instant,
        export_id: z.uuid().nullable(),
        status: z.string().meta({ description: 'The run’s export status, `refused` (see `refusal`) or `deleted`.', example: 'completed' }),
        new_count: z.int().min(0).nullable().meta({ description: 'Businesses new to you in that run (its leads).', example: 12 }),
        credits: z.int().min(0).nullable().meta({ example: 31 }),
        refusal: z.string().nullable().meta({ description: '`plan_restricted`, `insufficient_credits`, `budget_too_small`…', example: null }),
      })
      .nullable(),
    created_at: Instant,
  })
  .meta({ id: 'SavedSearch', description: 'A search you run again for only the businesses none of your exports delivered before.' })

type ApiSavedSearch = z.infer<typeof ApiSavedSearchSchema>

function bool(value: unknown): boolean {
  return value === true
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function toApiSavedSearch(saved: SavedSearch): ApiSavedSearch {
  const { countryCode, ...criteria } = saved.criteria
  return {
    id: saved.id,
    name: saved.name,
    kind: saved.kind,
    registry: saved.registryFilters ? toApiRegistryFilters(saved.registryFilters) : null,
    waiting_online: saved.watchWaiting,
    // A search saved before codes were stored has its country's name alone: its code is read from it.
    criteria: { ...criteria, sector: sectorId(criteria.sector), country_code: countryCode ?? countryCodeFromName(criteria.country) },
    filters: {
      has_website: bool(saved.filters.hasWebsite),
      has_phone: bool(saved.filters.hasPhone),
      min_rating: num(saved.filters.minRating),
      min_reviews: num(saved.filters.minReviews),
      exclude_closed: bool(saved.filters.excludeClosed),
      exclude_insolvent: saved.filters.excludeInsolvent !== false,
      exclude_radiated: saved.filters.excludeRadiated !== false,
    },
    enrichments: EnrichmentTypeSchema.array().catch([]).parse(saved.enrichments),
    preset: z.enum(DOWNLOAD_PRESETS).catch('all').parse(saved.preset),
    max_leads: saved.maxLeads,
    credit_budget: saved.creditBudget,
    push_connection_ids: saved.pushConnectionIds,
    schedule: { kind: saved.schedule.kind, weekday: saved.schedule.weekday, day: saved.schedule.day, hour: saved.schedule.hour, time_zone: saved.schedule.timeZone },
    lang: saved.lang,
    paused: saved.paused,
    next_run_at: saved.nextRunAt,
    last_run: saved.lastRun
      ? { at: saved.lastRun.at, export_id: saved.lastRun.exportId, status: saved.lastRun.status, new_count: saved.lastRun.newCount, credits: saved.lastRun.credits, refusal: saved.lastRun.refusal }
      : null,
    created_at: saved.createdAt,
  }
}

const ListCursor = CreatedCursor

const SavedSearchIdParams = z.object({ id: z.uuid().meta({ description: 'The saved search id.', example: '3f6b1c2e-8a4d-4f7e-9b1a-2c5d6e7f8a90' }) })

const ScheduleInputSchema = z
  .object({
    kind: z.enum(SCHEDULE_KINDS).meta({ description: '`none` (runs only when asked), `weekly` or `monthly`.' }),
    weekday: z.int().min(1).max(7).nullable().optional().meta({ description: 'Weekly: 1 = Monday … 7 = Sunday.', example: 1 }),
    day: z.int().min(1).max(31).nullable().optional().meta({ description: 'Monthly: the day of the month.', example: 1 }),
    hour: z.int().min(0).max(23).optional().meta({ description: 'The hour of the run in `time_zone` (default 8).', example: 8 }),
    time_zone: z.string().max(100).optional().meta({ description: 'An IANA time zone (default: the saved one, else Europe/Paris).', example: 'Europe/Paris' }),
  })
  .meta({ id: 'ScheduleInput' })

const deliveryFields = {
  enrichments: EnrichmentListSchema.meta({ example: ['phone', 'website', 'email'] }),
  preset: z.enum(DOWNLOAD_PRESETS).meta({ description: 'The download columns of its runs (default all).' }),
  max_leads: z.int().min(1).max(1_000_000).nullable().meta({ description: 'Caps the leads of each run; null: no cap of its own.', example: 500 }),
  credit_budget: z.int().min(1).max(1_000_000).nullable().meta({ description: 'Credits one run may spend at most; null: no cap but your balance.', example: 1000 }),
  schedule: ScheduleInputSchema,
  push_connection_ids: z
    .array(z.uuid())
    .max(MAX_SAVED_SEARCH_PUSHES)
    .meta({ description: 'CRM connections (GET /crm-connections) each run\'s new businesses are pushed to once the run completes; ids not of your team are dropped.' }),
}

const CreateSavedSearchSchema = z
  .object({
    name: z.string().max(1000).meta({ example: 'Bakeries – Brest, weekly' }),
    kind: z.enum(['map', 'new_companies']).optional().meta({ description: '`map` (default): `criteria` and `filters`. `new_companies`: `registry`, and a weekly or monthly `schedule`.' }),
    criteria: ApiCriteriaSchema.optional().meta({ description: 'A `map` search: what and where.' }),
    registry: ApiRegistryFiltersSchema.optional(),
    filters: ApiFiltersSchema.optional(),
    enrichments: deliveryFields.enrichments,
    preset: deliveryFields.preset.optional(),
    max_leads: deliveryFields.max_leads.optional(),
    credit_budget: deliveryFields.credit_budget.optional(),
    schedule: deliveryFields.schedule.optional(),
    push_connection_ids: deliveryFields.push_connection_ids.optional(),
  })
  .refine((body) => (body.kind === 'new_companies' ? body.registry !== undefined && body.criteria === undefined : body.criteria !== undefined && body.registry === undefined), {
    message: 'api.v1.criteriaOrRegistry',
    path: ['criteria'],
  })
  .meta({ id: 'CreateSavedSearch', description: 'A search to run again: what and where (as for a preview), its filters, and what each run delivers.', examples: [CREATE_SAVED_SEARCH_EXAMPLE] })

const UpdateSavedSearchBodySchema = z
  .object({
    name: z.string().max(1000).optional().meta({ example: 'Bakeries – Brest, monthly' }),
    enrichments: deliveryFields.enrichments.optional(),
    preset: deliveryFields.preset.optional(),
    max_leads: deliveryFields.max_leads.optional(),
    credit_budget: deliveryFields.credit_budget.optional(),
    schedule: deliveryFields.schedule.optional(),
    push_connection_ids: deliveryFields.push_connection_ids.optional(),
    paused: z.boolean().optional().meta({ description: 'true: no scheduled run until set back to false (the next run is then counted from now).' }),
  })
  .meta({ id: 'UpdateSavedSearch', description: 'The fields to change; the others keep their value. The search itself (criteria, filters) is fixed: save a new one to search elsewhere.' })

/** The edit form's field names → the API's, for the `errors` paths. */
const UPDATE_FIELD_PATHS: Record<string, string> = {
  name: 'body.name',
  options: 'body.enrichments',
  preset: 'body.preset',
  maxLeads: 'body.max_leads',
  creditBudget: 'body.credit_budget',
  scheduleKind: 'body.schedule.kind',
  weekday: 'body.schedule.weekday',
  day: 'body.schedule.day',
  hour: 'body.schedule.hour',
  timeZone: 'body.schedule.time_zone',
  pushTo: 'body.push_connection_ids',
}

type DeliveryChanges = Partial<{ [K in keyof typeof deliveryFields]: z.output<(typeof deliveryFields)[K]> }> & { name?: string }

/**
 * The edit page's command input (UpdateSavedSearchSchema, the form's own schema and messages) from the API's fields
 * over the saved values: one set of rules for both doors.
 */
function updateInput(ctx: ApiContext, current: SavedSearch | null, changes: DeliveryChanges) {
  const schedule = changes.schedule
  const currentSchedule = current?.schedule
  const raw = {
    intent: 'update',
    name: changes.name ?? current?.name,
    options: changes.enrichments ?? current?.enrichments ?? [],
    preset: changes.preset ?? current?.preset ?? 'all',
    maxLeads: (changes.max_leads !== undefined ? changes.max_leads : current?.maxLeads) ?? undefined,
    creditBudget: (changes.credit_budget !== undefined ? changes.credit_budget : current?.creditBudget) ?? undefined,
    scheduleKind: schedule?.kind ?? currentSchedule?.kind ?? 'none',
    weekday: (schedule ? schedule.weekday : currentSchedule?.weekday) ?? undefined,
    day: (schedule ? schedule.day : currentSchedule?.day) ?? undefined,
    hour: schedule?.hour ?? currentSchedule?.hour ?? 8,
    timeZone: schedule?.time_zone ?? currentSchedule?.timeZone ?? 'Europe/Paris',
    pushTo: changes.push_connection_ids ?? current?.pushConnectionIds ?? [],
  }
  const parsed = UpdateSavedSearchSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  return apiProblem(
    422,
    'validation_failed',
    ctx.t('api.v1.validationFailed'),
    parsed.error.issues.slice(0, 20).map((issue) => ({ path: UPDATE_FIELD_PATHS[String(issue.path[0])] ?? 'body', message: ctx.t(issue.message) })),
  )
}

function noEnrichment(ctx: ApiContext): never {
  return apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.enrichments', message: ctx.t('savedSearches.errors.noEnrichment') }])
}

async function savedAnswer(ctx: ApiContext, id: string, status: number, { located = false } = {}) {
  const saved = await getSavedSearch(ctx.user, id)
  if (!saved) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
  return { status, body: toApiSavedSearch(saved), ...(located ? { headers: locationOf('saved-searches', saved.id) } : {}) }
}

/** The form's field names of "Watch new companies" → the API's, for the `errors` paths. */
const WATCH_FIELD_PATHS: Record<string, string> = { ...UPDATE_FIELD_PATHS, filters: 'body.registry' }

/**
 * kind new_companies: the /companies form's command (WatchNewCompaniesSchema, its rules and messages, then saveWatch)
 * from the API's fields.
 */
async function createWatch(ctx: ApiContext, body: z.output<typeof CreateSavedSearchSchema>, lang: 'fr' | 'en') {
  const raw = {
    intent: 'watch-new-companies',
    name: body.name,
    options: body.enrichments,
    preset: body.preset ?? 'all',
    maxLeads: body.max_leads ?? undefined,
    filters: JSON.stringify(toRegistryFilters(body.registry ?? {})),
    scheduleKind: body.schedule?.kind,
    weekday: body.schedule?.weekday ?? undefined,
    day: body.schedule?.day ?? undefined,
    hour: body.schedule?.hour ?? 8,
    timeZone: body.schedule?.time_zone ?? 'Europe/Paris',
  }
  const parsed = WatchNewCompaniesSchema.safeParse(raw)
  if (!parsed.success) {
    const errors = parsed.error.issues.slice(0, 20).map((issue) => ({ path: WATCH_FIELD_PATHS[String(issue.path[0])] ?? 'body', message: ctx.t(issue.message) }))
    apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), errors)
  }
  const saved = await saveWatch(ctx.user, parsed.data, { lang })
  if (!saved.ok && saved.reason === 'location') apiProblem(422, 'invalid_location', ctx.t(saved.messageKey), [{ path: 'body.registry.place', message: ctx.t(saved.messageKey) }])
  if (!saved.ok) apiProblem(403, 'too_many_saved_searches', ctx.t('savedSearches.errors.limitReached', { count: saved.limit, plan: ctx.t(`plans.${saved.plan}`) }))
  if (body.credit_budget || body.push_connection_ids?.length) {
    const current = await getSavedSearch(ctx.user, saved.id)
    await updateSavedSearchCommand(ctx.user, saved.id, updateInput(ctx, current, body), { lang })
  }
  return savedAnswer(ctx, saved.id, 201, { located: true })
}

export const savedSearchOperations = [
  defineOperation({
    id: 'listSavedSearches',
    method: 'get',
    path: '/saved-searches',
    tag: 'Saved searches',
    summary: 'Your saved searches, newest first',
    description: 'Saved at /saved-searches or from the search page; each with its schedule, next run and last run.',
    query: z.object({ limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of saved searches.', schema: pageOf(ApiSavedSearchSchema) } },
    async handler({ ctx, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ListCursor) : null
      const rows = await listSavedSearches(ctx.user, { limit: query.limit + 1, after })
      const page = rows.slice(0, query.limit).map(toApiSavedSearch)
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'createSavedSearch',
    requires: 'export',
    method: 'post',
    path: '/saved-searches',
    tag: 'Saved searches',
    summary: 'Save a search',
    description:
      'The same command as "Save this search" on the search page: the location is checked as a search checks it, the enrichments follow the same rules (technologies needs website, registry data only in France). With `schedule`, it runs by itself; each run delivers only the businesses none of your exports delivered before.',
    query: z.object({ lang: langParam('en', 'The language its runs search in (as `lang` of POST /exports)') }),
    body: CreateSavedSearchSchema,
    responses: {
      201: { description: 'The saved search.', schema: ApiSavedSearchSchema, location: '/api/v1/saved-searches/{id}' },
      403: { description: 'Your plan keeps no more saved searches (`too_many_saved_searches`).' },
      422: { description: 'The location is not one GET /locations gives (`invalid_location`).' },
    },
    async handler({ ctx, query, body }) {
      if (body.kind === 'new_companies') return createWatch(ctx, body, query.lang)
      // Checked first, so a refused schedule saves nothing.
      const scheduled = body.schedule || body.credit_budget || body.push_connection_ids?.length ? updateInput(ctx, null, body) : null
      const saved = await saveSearch(ctx.user, {
        name: body.name,
        criteria: toSearchCriteria(body.criteria!),
        // The risk shield is on for a saved search unless the body turns it off (as the form's boxes start ticked).
        filters: { ...toSearchFilters(body.filters), excludeInsolvent: body.filters?.exclude_insolvent ?? true, excludeRadiated: body.filters?.exclude_radiated ?? true },
        options: body.enrichments,
        preset: body.preset ?? 'all',
        maxLeads: body.max_leads ?? null,
        lang: query.lang,
        ...(body.schedule?.time_zone ? { timeZone: body.schedule.time_zone } : {}),
      })
      if (!saved.ok && saved.reason === 'location') {
        const field = saved.field === 'countryCode' ? 'country' : saved.field
        const detail = ctx.t(saved.messageKey)
        apiProblem(422, 'invalid_location', detail, [{ path: `body.criteria.${field}`, message: detail }])
      }
      if (!saved.ok && saved.reason === 'saved_search_limit') {
        apiProblem(403, 'too_many_saved_searches', ctx.t('savedSearches.errors.limitReached', { count: saved.limit, plan: ctx.t(`plans.${saved.plan}`) }))
      }
      if (!saved.ok) noEnrichment(ctx)
      if (scheduled) await updateSavedSearchCommand(ctx.user, saved.id, scheduled, { lang: query.lang })
      return savedAnswer(ctx, saved.id, 201, { located: true })
    },
  }),
  defineOperation({
    id: 'getSavedSearch',
    method: 'get',
    path: '/saved-searches/{id}',
    tag: 'Saved searches',
    summary: 'A saved search',
    params: SavedSearchIdParams,
    responses: { 200: { description: 'The saved search.', schema: ApiSavedSearchSchema } },
    handler: ({ ctx, params }) => savedAnswer(ctx, params.id, 200),
  }),
  defineOperation({
    id: 'updateSavedSearch',
    requires: 'export',
    method: 'patch',
    path: '/saved-searches/{id}',
    tag: 'Saved searches',
    summary: 'Change a saved search',
    description: 'The same command as its edit page (name, enrichments, columns, caps, schedule), plus pause and resume as on the list. Fields left out keep their value.',
    params: SavedSearchIdParams,
    query: z.object({ lang: ApiLangSchema.optional().meta({ description: 'A new language for its runs; absent: it keeps its own (never the Accept-Language header).' }) }),
    body: UpdateSavedSearchBodySchema,
    responses: { 200: { description: 'The saved search as changed.', schema: ApiSavedSearchSchema } },
    async handler({ ctx, params, query, body }) {
      const current = await getSavedSearch(ctx.user, params.id)
      if (!current) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
      const { paused, ...changes } = body
      if (Object.keys(changes).length || (query.lang && query.lang !== current.lang)) {
        const updated = await updateSavedSearchCommand(ctx.user, params.id, updateInput(ctx, current, changes), { lang: query.lang ?? current.lang })
        if (!updated.ok && updated.reason === 'no_enrichment') noEnrichment(ctx)
        if (!updated.ok && updated.reason === 'watch_schedule') apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.schedule.kind', message: ctx.t('savedSearches.errors.watchSchedule') }])
        if (!updated.ok) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
      }
      if (paused !== undefined && paused !== current.paused && !(await setPaused(ctx.user, params.id, paused))) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
      return savedAnswer(ctx, params.id, 200)
    },
  }),
  defineOperation({
    id: 'deleteSavedSearch',
    requires: 'export',
    method: 'delete',
    path: '/saved-searches/{id}',
    tag: 'Saved searches',
    summary: 'Delete a saved search',
    description: 'No more runs; the exports of its past runs stay.',
    params: SavedSearchIdParams,
    responses: { 204: { description: 'Deleted.' } },
    async handler({ ctx, params }) {
      if (!(await deleteSavedSearch(ctx.user, params.id))) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
      return { status: 204 }
    },
  }),
  defineOperation({
    id: 'runSavedSearch',
    requires: 'export',
    method: 'post',
    path: '/saved-searches/{id}/runs',
    tag: 'Saved searches',
    summary: 'Run a saved search now',
    description:
      'Starts an export of only the businesses none of your exports delivered before (by source id, and by SIRET/SIREN where known): a run right after another finds none and costs nothing. The run’s credit budget and your plan’s rules are checked now. With `Idempotency-Key`, a retry returns the same export (200).',
    params: SavedSearchIdParams,
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(200).optional().meta({ description: 'Any string up to 200 characters: a retry with it never starts a second run.' }),
    }),
    limit: 'exportCreate',
    isReplay: async ({ ctx, headers }) => Boolean(headers['Idempotency-Key']) && holdsIdempotencyKey(ctx.user, `api-run:${headers['Idempotency-Key']}`),
    responses: {
      202: { description: 'The run’s export was created and is running.', schema: ApiExportSchema, location: EXPORT_LOCATION },
      200: { description: 'The same Idempotency-Key was sent before: that run’s export.', schema: ApiExportSchema, location: EXPORT_LOCATION },
      402: { description: 'No credits left (`insufficient_credits`).' },
      403: { description: 'Your plan no longer allows this search’s location (`plan_restricted`).' },
      409: { description: 'The run’s credit budget cannot pay for one lead (`budget_too_small`).' },
    },
    async handler({ ctx, params, headers }) {
      const idempotencyKey = headers['Idempotency-Key'] ? `api-run:${headers['Idempotency-Key']}` : randomUUID()
      const result = await runSavedSearch({ user: ctx.user, id: params.id, idempotencyKey })
      if (!result.ok) {
        if (result.code === 'not_found') apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
        if (result.code === 'budget_too_small') apiProblem(409, 'budget_too_small', ctx.t('savedSearches.refusals.budget_too_small'))
        return exportProblem({ ok: false, status: EXPORT_ERROR_STATUS[result.code], code: result.code, messageKey: result.messageKey }, ctx.t)
      }
      const exp = await withUser(ctx.user.claims, (trx) => loadApiExport(trx, result.exportId))
      if (!exp) apiProblem(404, 'not_found', ctx.t('savedSearches.errors.notFound'))
      return { status: result.duplicate ? 200 : 202, body: exp, headers: locationOf('exports', exp.id) }
    },
  }),
]
