// CRM connections and pushes: the commands of /settings/integrations and of an export's push page, with their body
// schemas (app/domain/crm.ts), roles and limits. Secrets go in, never out.
import { z } from 'zod'
import { runConnectionCommand, type ConnectionCommandResult } from '#app/.server/integrations/connection-commands.ts'
import { getCrmConnection, listCrmConnections } from '#app/.server/integrations/connections.ts'
import { createCrmPush, getCrmPush, holdsPushKey, listExportPushes, listPushItems, type PushResult } from '#app/.server/integrations/push.ts'
import { withUser } from '#app/.server/db.ts'
import {
  CRM_FIELD_MODES,
  CRM_FIELDS,
  CRM_PROVIDERS,
  CRM_PUSH_STATUSES,
  CRM_ROW_OUTCOMES,
  CrmConnectFieldsSchema,
  CrmPushBodySchema,
  MAX_CRM_CONNECTIONS,
  readCrmMapping,
  type CrmConnectionView,
  type CrmPushView,
} from '#app/domain/crm.ts'
import { CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { defineOperation, type ApiAnswer, type ApiContext } from '../operation.ts'
import { apiProblem } from '../problem.ts'

const datetime = () => z.iso.datetime({ offset: true })

const KNOWN_FIELDS: ReadonlySet<string> = new Set(CRM_FIELDS)

/**
 * The field mapping, keyed by field (a record, not an object of fixed properties: the field names are data, and
 * `leadatlas_id` there is a field's name, no id). Unknown fields are refused by name.
 */
const MappingSchema = z
  .record(z.string(), z.enum(CRM_FIELD_MODES))
  .superRefine((mapping, ctx) => {
    for (const field of Object.keys(mapping)) if (!KNOWN_FIELDS.has(field)) ctx.addIssue({ code: 'custom', path: [field], message: `unknown field ${field}` })
  })
  .meta({
    id: 'CrmMapping',
    description: `Per field (${CRM_FIELDS.join(', ')}): overwrite, fill_empty (only where the CRM has no value) or skip.`,
    example: { name: 'overwrite', phone: 'fill_empty', technologies: 'skip' },
  })

const CrmConnectionSchema = z
  .object({
    id: z.uuid(),
    provider: z.enum(CRM_PROVIDERS),
    label: z.string().meta({ example: 'Sales HubSpot' }),
    secret_hint: z.string().meta({ description: 'The first and last characters of the credential (a service account: its email).', example: 'pat-…9f2a' }),
    spreadsheet_id: z.string().nullable().meta({ description: 'Google Sheets: the spreadsheet pushed to.', example: null }),
    mapping: MappingSchema,
    last_error: z.string().nullable().meta({ description: 'Why the last test or push failed as a whole (refused credential), null when healthy.', example: null }),
    last_checked_at: datetime().nullable(),
    opt_outs_synced_at: datetime().nullable().meta({ description: 'HubSpot and Brevo: when opt-outs were last read back into your do-not-contact list.' }),
    created_at: datetime(),
  })
  .meta({ id: 'CrmConnection', description: 'A CRM connection of your team (its credential is never returned).' })

const CrmPushSchema = z
  .object({
    id: z.uuid(),
    export_id: z.uuid(),
    connection_id: z.uuid(),
    status: z.enum(CRM_PUSH_STATUSES).meta({ description: 'queued, running, completed or failed (as a whole: refused credential, CRM down for an hour).' }),
    total: z.int().min(0).meta({ description: 'Leads the push covers.', example: 120 }),
    created: z.int().min(0).meta({ example: 100 }),
    updated: z.int().min(0).meta({ example: 15 }),
    skipped: z.int().min(0).meta({ description: 'Unchanged since the last push, no email (Brevo) or on your do-not-contact list.', example: 4 }),
    failed: z.int().min(0).meta({ description: 'Refused by the CRM: each with its reason in the report.', example: 1 }),
    error: z.string().nullable().meta({ description: 'Why the push stopped as a whole, null otherwise.', example: null }),
    created_at: datetime(),
    finished_at: datetime().nullable(),
  })
  .meta({ id: 'CrmPush', description: 'A push of an export’s leads to a CRM connection, with its counts.' })

const CrmPushItemSchema = z
  .object({
    lead_id: z.uuid(),
    name: z.string().meta({ example: 'Boulangerie Paul' }),
    outcome: z.enum(CRM_ROW_OUTCOMES),
    remote_id: z.string().nullable().meta({ description: "The CRM's id of the company (a Sheets row: its key).", example: '18342901234' }),
    reason: z.string().nullable().meta({ description: 'unchanged, no_email, do_not_contact, or the CRM’s own words for a refusal.', example: 'unchanged' }),
  })
  .meta({ id: 'CrmPushItem' })

function toApiConnection(connection: CrmConnectionView) {
  return {
    id: connection.id,
    provider: connection.provider,
    label: connection.label,
    secret_hint: connection.secretHint,
    spreadsheet_id: connection.spreadsheetId,
    mapping: connection.mapping,
    last_error: connection.lastError,
    last_checked_at: connection.lastCheckedAt,
    opt_outs_synced_at: connection.optOutsSyncedAt,
    created_at: connection.createdAt,
  }
}

function toApiPush(push: CrmPushView) {
  return {
    id: push.id,
    export_id: push.exportId,
    connection_id: push.connectionId,
    status: push.status,
    total: push.total,
    ...push.counts,
    error: push.error,
    created_at: push.createdAt,
    finished_at: push.finishedAt,
  }
}

/** A connection command's refusal as the problem every door agrees on. */
function connectionProblem(ctx: ApiContext, result: Extract<ConnectionCommandResult, { ok: false }>): never {
  const retry = result.refusal && !('unavailable' in result.refusal) ? { 'Retry-After': String(result.refusal.retryAfterSeconds) } : undefined
  switch (result.code) {
    case 'not_found':
      return apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
    case 'too_many':
      return apiProblem(409, 'too_many_connections', ctx.t('integrations.errors.too_many', { max: MAX_CRM_CONNECTIONS }))
    case 'invalid_secret':
      return apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.secret', message: ctx.t('integrations.errors.invalid_secret') }])
    case 'refused':
      return apiProblem(422, 'crm_refused', ctx.t('integrations.errors.refused', { reason: result.reason ?? '' }))
    case 'unavailable':
      return apiProblem(503, 'source_unavailable', ctx.t('integrations.errors.unavailable'), undefined, { 'Retry-After': '30' })
    case 'key_missing':
      return apiProblem(503, 'integrations_unconfigured', ctx.t('integrations.errors.key_missing'))
    case 'oauth_unavailable':
      return apiProblem(409, 'validation_failed', ctx.t('integrations.errors.oauth_unavailable'))
    case 'rate_limited':
      return apiProblem(429, 'rate_limited', ctx.t('integrations.errors.rate_limited'), undefined, retry)
  }
}

function pushProblem(ctx: ApiContext, result: Extract<PushResult, { ok: false }>): never {
  switch (result.code) {
    case 'export_not_found':
    case 'connection_not_found':
      return apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
    case 'export_not_completed':
      return apiProblem(409, 'not_completed', ctx.t('integrations.errors.export_not_completed'))
    case 'lead_not_in_export':
      return apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.lead_ids', message: ctx.t('integrations.errors.lead_not_in_export') }])
    case 'idempotency_conflict':
      return apiProblem(409, 'idempotency_conflict', ctx.t('integrations.errors.idempotency_conflict'))
    case 'rate_limited':
      return apiProblem(429, 'rate_limited', ctx.t('integrations.errors.rate_limited'))
  }
}

const ConnectionIdParams = z.object({ id: z.uuid().meta({ description: 'The connection id.', example: '3f6c1e2a-9b4d-4c8e-a1f2-7d5e9b0c2a4f' }) })
const ExportIdParams = z.object({ id: z.uuid().meta({ description: 'The export id.', example: '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77' }) })
const PushIdParams = z.object({ id: z.uuid().meta({ description: 'The push id.', example: '9a2b7c4d-1e3f-4a5b-8c6d-0e1f2a3b4c5d' }) })
const ItemCursor = z.tuple([z.uuid()])

async function exportExists(ctx: ApiContext, exportId: string): Promise<boolean> {
  return Boolean(await withUser(ctx.user.claims, (trx) => trx.selectFrom('exports').select('id').where('id', '=', exportId).executeTakeFirst()))
}

async function connectionOr404(ctx: ApiContext, id: string) {
  const connection = await getCrmConnection(ctx.user, id)
  if (!connection) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
  return connection
}

export const integrationOperations = [
  defineOperation({
    id: 'listCrmConnections',
    method: 'get',
    path: '/crm-connections',
    tag: 'CRM integrations',
    summary: "Your team's CRM connections",
    responses: { 200: { description: 'Every connection, oldest first.', schema: z.object({ data: z.array(CrmConnectionSchema) }) } },
    async handler({ ctx }) {
      return { status: 200, body: { data: (await listCrmConnections(ctx.user)).map(toApiConnection) } }
    },
  }),
  defineOperation({
    id: 'createCrmConnection',
    requires: 'integrations',
    method: 'post',
    path: '/crm-connections',
    tag: 'CRM integrations',
    summary: 'Connect a CRM',
    description: `HubSpot (a private app or service key token), Pipedrive (an API token), Brevo (an API key) or Google Sheets (a service account JSON in \`secret\`, and the spreadsheet's URL or id). The credential is tried and the CRM readied (custom properties, header row) before anything is stored; it is stored encrypted and never returned. At most ${MAX_CRM_CONNECTIONS} connections.`,
    body: CrmConnectFieldsSchema.meta({ id: 'CreateCrmConnection' }),
    responses: {
      201: { description: 'Connected.', schema: CrmConnectionSchema },
      409: { description: `You already have ${MAX_CRM_CONNECTIONS} connections (\`too_many_connections\`).` },
      422: { description: 'The CRM refused the credential (`crm_refused`, with its reason), or it is not shaped as this CRM’s (`validation_failed`).' },
      503: { description: 'The CRM did not answer (`source_unavailable`), or the server has no encryption key (`integrations_unconfigured`).' },
    },
    async handler({ ctx, body }): Promise<ApiAnswer> {
      const result = await runConnectionCommand(ctx.user, { intent: 'connect', ...body })
      if (!result.ok) connectionProblem(ctx, result)
      return { status: 201, body: toApiConnection(result.connection!), headers: { Location: `/api/v1/crm-connections/${result.connection!.id}` } }
    },
  }),
  defineOperation({
    id: 'getCrmConnection',
    method: 'get',
    path: '/crm-connections/{id}',
    tag: 'CRM integrations',
    summary: 'A CRM connection',
    params: ConnectionIdParams,
    responses: { 200: { description: 'The connection.', schema: CrmConnectionSchema } },
    async handler({ ctx, params }) {
      return { status: 200, body: toApiConnection(await connectionOr404(ctx, params.id)) }
    },
  }),
  defineOperation({
    id: 'updateCrmConnection',
    requires: 'integrations',
    method: 'patch',
    path: '/crm-connections/{id}',
    tag: 'CRM integrations',
    summary: "Change a connection's field mapping",
    description: 'Fields left out keep their mode. `fill_empty` never replaces a value already in the CRM.',
    params: ConnectionIdParams,
    body: z.object({ mapping: MappingSchema }).strict().meta({ id: 'UpdateCrmConnection' }),
    responses: { 200: { description: 'The connection as changed.', schema: CrmConnectionSchema } },
    async handler({ ctx, params, body }) {
      const connection = await connectionOr404(ctx, params.id)
      const result = await runConnectionCommand(ctx.user, { intent: 'mapping', connectionId: params.id, mapping: readCrmMapping({ ...connection.mapping, ...body.mapping }) })
      if (!result.ok) connectionProblem(ctx, result)
      return { status: 200, body: toApiConnection(await connectionOr404(ctx, params.id)) }
    },
  }),
  defineOperation({
    id: 'deleteCrmConnection',
    requires: 'integrations',
    method: 'delete',
    path: '/crm-connections/{id}',
    tag: 'CRM integrations',
    summary: 'Disconnect a CRM',
    description: 'Its push reports go with it; saved searches stop pushing to it. The records in the CRM are not touched.',
    params: ConnectionIdParams,
    responses: { 204: { description: 'Disconnected.' } },
    async handler({ ctx, params }) {
      const result = await runConnectionCommand(ctx.user, { intent: 'disconnect', connectionId: params.id })
      if (!result.ok) connectionProblem(ctx, result)
      return { status: 204 }
    },
  }),
  defineOperation({
    id: 'testCrmConnection',
    requires: 'integrations',
    method: 'post',
    path: '/crm-connections/{id}/test',
    tag: 'CRM integrations',
    summary: 'Test a connection',
    description: 'One cheap call to the CRM with the stored credential; the outcome is kept as `last_error` / `last_checked_at`.',
    params: ConnectionIdParams,
    responses: {
      200: { description: 'The CRM accepted the credential.', schema: z.object({ ok: z.literal(true), account: z.string().meta({ description: 'The CRM account (portal id, company, spreadsheet title).', example: '146091234' }) }) },
      422: { description: 'The CRM refused the credential (`crm_refused`).' },
      503: { description: 'The CRM did not answer (`source_unavailable`).' },
    },
    async handler({ ctx, params }) {
      const result = await runConnectionCommand(ctx.user, { intent: 'test', connectionId: params.id })
      if (!result.ok) connectionProblem(ctx, result)
      return { status: 200, body: { ok: true, account: result.account ?? '' } }
    },
  }),
  defineOperation({
    id: 'createCrmPush',
    requires: 'export',
    method: 'post',
    path: '/exports/{id}/crm-pushes',
    tag: 'CRM integrations',
    summary: "Push an export's leads to a CRM",
    description:
      'Every lead of a completed export, or `lead_ids`. Companies are matched by SIRET, SIREN, website domain or LeadAtlas id: a second push updates them, never a duplicate. Your do-not-contact list is honoured as it is now. Runs in the background: read the push and its report. With `Idempotency-Key`, the same key and body within 24 hours return the same push.',
    params: ExportIdParams,
    headers: z.object({ 'Idempotency-Key': z.string().min(1).max(200).optional().meta({ description: 'A retry with it never starts a second push.' }) }),
    body: CrmPushBodySchema.meta({ id: 'CreateCrmPush' }),
    limit: 'crmPush',
    isReplay: async ({ ctx, headers }) => Boolean(headers['Idempotency-Key']) && holdsPushKey(ctx.user, `api:${headers['Idempotency-Key']}`),
    responses: {
      202: { description: 'The push is queued.', schema: CrmPushSchema },
      200: { description: 'The same Idempotency-Key and body were sent before: that push.', schema: CrmPushSchema },
      409: { description: 'The export is not completed (`not_completed`), or the Idempotency-Key was used with another body (`idempotency_conflict`).' },
      422: { description: 'A lead of `lead_ids` is not in the export (`validation_failed` on `body.lead_ids`).' },
    },
    async handler({ ctx, params, headers, body }) {
      const key = headers['Idempotency-Key'] ? `api:${headers['Idempotency-Key']}` : undefined
      const result = await createCrmPush(ctx.user, params.id, { connectionId: body.connection_id, leadIds: body.lead_ids }, { idempotencyKey: key })
      if (!result.ok) pushProblem(ctx, result)
      return { status: result.replayed ? 200 : 202, body: toApiPush(result.push), headers: { Location: `/api/v1/crm-pushes/${result.push.id}` } }
    },
  }),
  defineOperation({
    id: 'listCrmPushes',
    method: 'get',
    path: '/exports/{id}/crm-pushes',
    tag: 'CRM integrations',
    summary: "An export's pushes, newest first",
    params: ExportIdParams,
    responses: { 200: { description: 'The last 50 pushes of the export.', schema: z.object({ data: z.array(CrmPushSchema) }) } },
    async handler({ ctx, params }) {
      if (!(await exportExists(ctx, params.id))) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 200, body: { data: (await listExportPushes(ctx.user, params.id, 50)).map(toApiPush) } }
    },
  }),
  defineOperation({
    id: 'getCrmPush',
    method: 'get',
    path: '/crm-pushes/{id}',
    tag: 'CRM integrations',
    summary: 'A push and its counts',
    params: PushIdParams,
    responses: { 200: { description: 'The push.', schema: CrmPushSchema } },
    async handler({ ctx, params }) {
      const push = await getCrmPush(ctx.user, params.id)
      if (!push) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 200, body: toApiPush(push) }
    },
  }),
  defineOperation({
    id: 'listCrmPushItems',
    method: 'get',
    path: '/crm-pushes/{id}/items',
    tag: 'CRM integrations',
    summary: "A push's report, lead by lead",
    description: 'What the CRM did with each lead: created, updated, skipped or failed (with the CRM’s reason).',
    params: PushIdParams,
    query: z.object({ outcome: z.enum(CRM_ROW_OUTCOMES).optional(), limit: limitParam(1000, 100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of the report.', schema: pageOf(CrmPushItemSchema) } },
    async handler({ ctx, params, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ItemCursor)[0] : null
      if (!(await getCrmPush(ctx.user, params.id))) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      const rows = await listPushItems(ctx.user, params.id, { limit: query.limit + 1, after, outcome: query.outcome ?? null })
      const page = rows.slice(0, query.limit).map((item) => ({ lead_id: item.leadId, name: item.name, outcome: item.outcome, remote_id: item.remoteId, reason: item.reason }))
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.lead_id]) : null } }
    },
  }),
]
