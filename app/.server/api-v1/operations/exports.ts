// Exports: create (idempotent), list, read, resume, add enrichments, delete. Each runs the command the export pages
// run (app/.server/exports/service.ts), as the key's owner.
import { sql } from 'kysely'
import { z } from 'zod'
import { withUser } from '#app/.server/db.ts'
import { API_EXPORT_COLUMNS, loadApiExport } from '#app/.server/exports/api-export.ts'
import { addEnrichment, createExport, deleteExport, holdsIdempotencyKey, resumeExport } from '#app/.server/exports/service.ts'
import { exportCallbackSecret } from '#app/.server/webhooks/endpoints.ts'
import { ApiExportSchema, API_EXPORT_STATUSES, toApiExport } from '#app/domain/api-export.ts'
import { optionsFromValues } from '#app/domain/enrichment.ts'
import { AddEnrichmentsBodySchema, CreateExportBodySchema, toRegistryFilters, toSearchCriteria, toSearchFilters } from '../commands.ts'
import { CreatedCursor, CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { exportProblem } from '../export-failure.ts'
import { langParam } from '../lang.ts'
import { defineOperation, locationOf, type ApiContext } from '../operation.ts'
import { apiProblem } from '../problem.ts'
import { refuseWebhookUrl } from './webhooks.ts'
import { isFrance } from '#app/domain/enrichment.ts'

export const ExportIdParams = z.object({ id: z.uuid().meta({ description: 'The export id.' }) })

export async function exportAnswer(ctx: ApiContext, id: string, status: number, { located = false } = {}) {
  const exp = await withUser(ctx.user.claims, (trx) => loadApiExport(trx, id))
  if (!exp) apiProblem(404, 'not_found', ctx.t('exports.errors.notFound'))
  return { status, body: exp, ...(located ? { headers: locationOf('exports', exp.id) } : {}) }
}

/** What `Location` names on the answers that create (or replay) an export. */
export const EXPORT_LOCATION = '/api/v1/exports/{id}'

const ListCursor = CreatedCursor

/** The creation's answer: the export, with its callback's secret when it has one (`webhook_url`). */
export const CreatedExportSchema = ApiExportSchema.extend({
  webhook: z
    .object({
      url: z.string().meta({ example: 'https://example.com/leadatlas/callback' }),
      secret: z.string().meta({
        description: 'The callback\'s own signing secret, `whsec_<base64>`: verify its delivery with it (Standard Webhooks, as any endpoint\'s). Never shown by GET.',
        example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      }),
    })
    .optional()
    .meta({ description: 'Only when the export was created with `webhook_url`.' }),
}).meta({ id: 'CreatedExport' })

export const exportOperations = [
  defineOperation({
    id: 'createExport',
    requires: 'export',
    method: 'post',
    path: '/exports',
    tag: 'Exports',
    summary: 'Start an export',
    description:
      'Searches (the map with `criteria`, or the company registry with `registry`), then enriches each lead. Credits are charged only for successful enrichments, never twice for the same business within the reuse window; your do-not-contact list is honoured. With `Idempotency-Key`, the same key and body within 24 hours return the same export (200) instead of a new one. With `webhook_url`, the end of the export is POSTed there, signed with the `webhook.secret` of this answer (a replay answers the same secret, never a second callback).',
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(200).optional().meta({ description: 'Any string up to 200 characters: a retry with it never creates a second export.' }),
    }),
    query: z.object({ lang: langParam('en', 'The language the businesses are searched in: category names in `business_types`, and names and addresses where the source has them in several languages') }),
    body: CreateExportBodySchema,
    limit: 'exportCreate',
    isReplay: async ({ ctx, headers }) => Boolean(headers['Idempotency-Key']) && holdsIdempotencyKey(ctx.user, `api:${headers['Idempotency-Key']}`),
    responses: {
      202: { description: 'The export was created and is running.', schema: CreatedExportSchema, location: EXPORT_LOCATION },
      200: { description: 'The same Idempotency-Key and body were sent before: that export (and its callback, the same).', schema: CreatedExportSchema, location: EXPORT_LOCATION },
      402: { description: 'No credits left (`insufficient_credits`).' },
      403: { description: 'Your plan needs a finer location (`plan_restricted`).' },
      409: { description: 'The Idempotency-Key was used with another body (`idempotency_conflict`).' },
      422: { description: 'The location is not one GET /locations gives (`invalid_location`); `webhook_url` is not an https URL on a public address (`validation_failed` on `body.webhook_url`).' },
    },
    async handler({ ctx, headers, query, body }) {
      // Before anything is written: a refused callback URL creates no export.
      if (body.webhook_url !== undefined) await refuseWebhookUrl(ctx, body.webhook_url, 'body.webhook_url')
      const registry = body.registry ? toRegistryFilters(body.registry) : undefined
      // The schema lets through exactly one of the two: a registry export searches France.
      const criteria = body.criteria ? toSearchCriteria(body.criteria) : { sector: '', country: 'France', region: '', department: '', city: '' }
      const result = await createExport({
        user: ctx.user,
        name: body.name,
        criteria,
        ...(registry ? { registry } : {}),
        enrichmentOptions: optionsFromValues(body.enrichments, { france: isFrance(criteria.country) }),
        // Namespaced: the API's keys never meet the keys the forms generate.
        idempotencyKey: headers['Idempotency-Key'] ? `api:${headers['Idempotency-Key']}` : '',
        lang: query.lang,
        maxLeads: body.max_leads ?? null,
        filters: toSearchFilters(body.filters),
        onlyNew: body.only_new,
        ...(body.webhook_url !== undefined ? { webhookUrl: body.webhook_url } : {}),
      })
      if (!result.ok) exportProblem(result, ctx.t)
      const answer = await exportAnswer(ctx, result.exportId, result.duplicate ? 200 : 202, { located: true })
      const secret = answer.body.webhook_url ? await exportCallbackSecret(ctx.user.workspace.id, result.exportId) : null
      if (!answer.body.webhook_url || !secret) return answer
      return { ...answer, body: { ...answer.body, webhook: { url: answer.body.webhook_url, secret } }, headers: { ...answer.headers, 'Cache-Control': 'no-store' } }
    },
  }),
  defineOperation({
    id: 'listExports',
    method: 'get',
    path: '/exports',
    tag: 'Exports',
    summary: 'Your exports, newest first',
    query: z.object({ status: z.enum(API_EXPORT_STATUSES).optional(), limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of exports.', schema: pageOf(ApiExportSchema) } },
    async handler({ ctx, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ListCursor) : null
      const rows = await withUser(ctx.user.claims, (trx) => {
        let select = trx.selectFrom('exports').select(API_EXPORT_COLUMNS).where('user_id', '=', ctx.user.workspace.id)
        if (query.status) select = select.where('status', '=', query.status)
        if (after) select = select.where(sql<boolean>`(created_at, id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`)
        return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute()
      })
      const page = rows.slice(0, query.limit).map(toApiExport)
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'getExport',
    method: 'get',
    path: '/exports/{id}',
    tag: 'Exports',
    summary: 'An export and its progress',
    params: ExportIdParams,
    responses: { 200: { description: 'The export.', schema: ApiExportSchema } },
    handler: ({ ctx, params }) => exportAnswer(ctx, params.id, 200),
  }),
  defineOperation({
    id: 'resumeExport',
    requires: 'export',
    method: 'post',
    path: '/exports/{id}/resume',
    tag: 'Exports',
    summary: 'Resume an interrupted export',
    description: 'After credits ran out (status `interrupted`): enriches the leads left, charging only what succeeds.',
    params: ExportIdParams,
    limit: 'exportResume',
    responses: {
      202: { description: 'The export is running again.', schema: ApiExportSchema },
      402: { description: 'No credits left (`insufficient_credits`).' },
      409: { description: 'The export is not interrupted (`not_resumable`).' },
    },
    async handler({ ctx, params }) {
      const result = await resumeExport({ user: ctx.user, exportId: params.id })
      if (!result.ok) exportProblem(result, ctx.t)
      return exportAnswer(ctx, params.id, 202)
    },
  }),
  defineOperation({
    id: 'addExportEnrichments',
    requires: 'export',
    method: 'post',
    path: '/exports/{id}/enrichments',
    tag: 'Exports',
    summary: 'Add enrichments to a completed export',
    description: 'Runs only the new enrichments on the same leads; results you already paid for are reused for free.',
    params: ExportIdParams,
    body: AddEnrichmentsBodySchema,
    limit: 'exportEnrich',
    responses: {
      202: { description: 'The export is running the new enrichments.', schema: ApiExportSchema },
      402: { description: 'No credits left (`insufficient_credits`).' },
      409: { description: 'The export is not completed (`not_completed`).' },
    },
    async handler({ ctx, params, body }) {
      const result = await addEnrichment({ user: ctx.user, exportId: params.id, options: body.enrichments })
      if (!result.ok) exportProblem(result, ctx.t)
      return exportAnswer(ctx, params.id, 202)
    },
  }),
  defineOperation({
    id: 'deleteExport',
    requires: 'export',
    method: 'delete',
    path: '/exports/{id}',
    tag: 'Exports',
    summary: 'Delete an export',
    description: 'Stops it if it runs. The credit history stays.',
    params: ExportIdParams,
    responses: { 204: { description: 'Deleted.' } },
    async handler({ ctx, params }) {
      const result = await deleteExport({ user: ctx.user, exportId: params.id })
      if (!result.ok) exportProblem(result, ctx.t)
      return { status: 204 }
    },
  }),
]
