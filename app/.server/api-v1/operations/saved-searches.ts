// Saved searches: list them, and run one now — the same run command as the list's "Run now" button and the scheduler
// (app/.server/saved-searches/run.ts), as the key's owner.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { withUser } from '#app/.server/db.ts'
import { loadApiExport } from '#app/.server/exports/api-export.ts'
import { holdsIdempotencyKey } from '#app/.server/exports/service.ts'
import { runSavedSearch } from '#app/.server/saved-searches/run.ts'
import { listSavedSearches } from '#app/.server/saved-searches/store.ts'
import { ApiExportSchema, EnrichmentTypeSchema } from '#app/domain/api-export.ts'
import { DOWNLOAD_PRESETS } from '#app/domain/download-presets.ts'
import { EXPORT_ERROR_STATUS } from '#app/domain/exports.ts'
import type { SavedSearch } from '#app/domain/saved-searches.ts'
import { SCHEDULE_KINDS } from '#app/domain/saved-searches.ts'
import { CreatedCursor, CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { exportProblem } from '../export-failure.ts'
import { defineOperation } from '../operation.ts'
import { apiProblem } from '../problem.ts'

const Instant = z.iso.datetime({ offset: true })

const ApiSavedSearchSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    criteria: z.object({ sector: z.string(), country: z.string(), region: z.string(), department: z.string(), city: z.string() }),
    filters: z.object({
      has_website: z.boolean(),
      has_phone: z.boolean(),
      min_rating: z.number().nullable(),
      min_reviews: z.int().nullable(),
      exclude_closed: z.boolean(),
    }),
    enrichments: z.array(EnrichmentTypeSchema),
    preset: z.enum(DOWNLOAD_PRESETS).meta({ description: 'The download columns of its runs: all, contacts or crm.' }),
    max_leads: z.int().nullable(),
    credit_budget: z.int().nullable().meta({ description: 'Credits one run may spend at most (it caps the leads); null: no cap but your balance.' }),
    schedule: z.object({
      kind: z.enum(SCHEDULE_KINDS),
      weekday: z.int().min(1).max(7).nullable().meta({ description: 'Weekly: 1 = Monday … 7 = Sunday.' }),
      day: z.int().min(1).max(31).nullable().meta({ description: 'Monthly: the day of the month (a shorter month runs on its last day).' }),
      hour: z.int().min(0).max(23),
      time_zone: z.string().meta({ example: 'Europe/Paris' }),
    }),
    paused: z.boolean(),
    next_run_at: Instant.nullable().meta({ description: 'Null without a schedule or while paused.' }),
    last_run: z
      .object({
        at: Instant,
        export_id: z.uuid().nullable(),
        status: z.string().meta({ description: 'The run’s export status, `refused` (see `refusal`) or `deleted`.' }),
        new_count: z.int().nullable().meta({ description: 'Businesses new to you in that run (its leads).' }),
        credits: z.int().nullable(),
        refusal: z.string().nullable().meta({ description: '`plan_restricted`, `insufficient_credits`, `budget_too_small`…' }),
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
  const { countryCode: _code, ...criteria } = saved.criteria
  return {
    id: saved.id,
    name: saved.name,
    criteria,
    filters: {
      has_website: bool(saved.filters.hasWebsite),
      has_phone: bool(saved.filters.hasPhone),
      min_rating: num(saved.filters.minRating),
      min_reviews: num(saved.filters.minReviews),
      exclude_closed: bool(saved.filters.excludeClosed),
    },
    enrichments: EnrichmentTypeSchema.array().catch([]).parse(saved.enrichments),
    preset: z.enum(DOWNLOAD_PRESETS).catch('all').parse(saved.preset),
    max_leads: saved.maxLeads,
    credit_budget: saved.creditBudget,
    schedule: { kind: saved.schedule.kind, weekday: saved.schedule.weekday, day: saved.schedule.day, hour: saved.schedule.hour, time_zone: saved.schedule.timeZone },
    paused: saved.paused,
    next_run_at: saved.nextRunAt,
    last_run: saved.lastRun
      ? { at: saved.lastRun.at, export_id: saved.lastRun.exportId, status: saved.lastRun.status, new_count: saved.lastRun.newCount, credits: saved.lastRun.credits, refusal: saved.lastRun.refusal }
      : null,
    created_at: saved.createdAt,
  }
}

const ListCursor = CreatedCursor

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
      if (query.cursor && !after) apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'query.cursor', message: ctx.t('api.v1.badCursor') }])
      const rows = await listSavedSearches(ctx.user, { limit: query.limit + 1, after })
      const page = rows.slice(0, query.limit).map(toApiSavedSearch)
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'runSavedSearch',
    method: 'post',
    path: '/saved-searches/{id}/runs',
    tag: 'Saved searches',
    summary: 'Run a saved search now',
    description:
      'Starts an export of only the businesses none of your exports delivered before (by source id, and by SIRET/SIREN where known): a run right after another finds none and costs nothing. The run’s credit budget and your plan’s rules are checked now. With `Idempotency-Key`, a retry returns the same export (200).',
    params: z.object({ id: z.uuid().meta({ description: 'The saved search id.' }) }),
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(200).optional().meta({ description: 'Any string up to 200 characters: a retry with it never starts a second run.' }),
    }),
    limit: 'exportCreate',
    isReplay: async ({ ctx, headers }) => Boolean(headers['Idempotency-Key']) && holdsIdempotencyKey(ctx.user, `api-run:${headers['Idempotency-Key']}`),
    responses: {
      202: { description: 'The run’s export was created and is running.', schema: ApiExportSchema },
      200: { description: 'The same Idempotency-Key was sent before: that run’s export.', schema: ApiExportSchema },
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
      return { status: result.duplicate ? 200 : 202, body: exp }
    },
  }),
]
