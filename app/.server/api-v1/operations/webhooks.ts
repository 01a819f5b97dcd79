// Webhook endpoints: list, create (the secret shown once), read, delete, and a test event. The same store and rules
// as /settings/api/webhooks (app/.server/webhooks/), the same body schema as its form (app/domain/webhook-commands.ts).
import { z } from 'zod'
import { deliveryState, listWebhookDeliveries, redeliver, sendTestEvent } from '#app/.server/webhooks/deliveries.ts'
import {
  createWebhookEndpoint,
  DEFAULT_SECRET_OVERLAP_SECONDS,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  MAX_SECRET_OVERLAP_SECONDS,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '#app/.server/webhooks/endpoints.ts'
import { checkWebhookUrl, webhookNetwork } from '#app/.server/webhooks/guard.ts'
import { ApiExportSchema } from '#app/domain/api-export.ts'
import { WebhookEndpointFieldsSchema } from '#app/domain/webhook-commands.ts'
import { DELIVERY_STATES, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENTS, type WebhookDeliveryView, type WebhookEndpointView } from '#app/domain/webhooks.ts'
import { CreatedCursor, CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { defineOperation, locationOf, type ApiAnswer, type ApiContext } from '../operation.ts'
import { apiProblem } from '../problem.ts'

const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string().meta({ example: 'https://example.com/leadatlas/webhooks' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean().meta({ description: 'false once switched off, or after 3 days of failed deliveries (`disabled_reason`).' }),
    disabled_at: z.iso.datetime({ offset: true }).nullable(),
    disabled_reason: z.enum(['failing', 'user']).nullable(),
    failing_since: z.iso.datetime({ offset: true }).nullable().meta({ description: 'The first failure since the last successful delivery.' }),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'WebhookEndpoint', description: 'A webhook endpoint (its secret is only shown when it is created).' })

const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().meta({ description: 'The signing secret, `whsec_<base64>`: shown this once. Verify each delivery with it.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
}).meta({ id: 'CreatedWebhookEndpoint' })

const EndpointIdParams = z.object({ id: z.uuid().meta({ description: 'The endpoint id.', example: '0b9e4c1a-6f2d-4a8b-9c3e-5d7f1a2b3c4d' }) })
const DeliveryIdParams = z.object({ id: z.uuid().meta({ description: 'The delivery id.', example: '7c2a9e14-3b5d-4f6a-8e1c-9d0b2a4c6e8f' }) })

const WebhookAttemptSchema = z
  .object({
    attempted_at: z.iso.datetime({ offset: true }),
    http_status: z.int().min(100).max(599).nullable().meta({ description: 'Null when no answer came (timeout, refused connection, refused address).', example: 200 }),
    duration_ms: z.int().min(0).max(600_000).meta({ example: 143 }),
    response_excerpt: z.string().nullable().meta({ description: 'The first 1 024 bytes of the answer.', example: 'ok' }),
    error: z.string().nullable().meta({ description: 'Why no answer came, when none did.', example: null }),
  })
  .meta({ id: 'WebhookAttempt' })

const WebhookDeliverySchema = z
  .object({
    id: z.uuid(),
    endpoint_id: z.uuid(),
    event_type: z.enum([...WEBHOOK_EVENTS, 'test']),
    message_id: z
      .string()
      .regex(/^msg_[0-9a-f]{32}$/)
      .meta({ description: 'Sent as `webhook-id`: a redelivery keeps it.', example: 'msg_2f1d3c4b5a6978e8d7c6b5a4f3e2d1c0' }),
    state: z.enum(DELIVERY_STATES).meta({ description: 'pending (waiting for its next attempt), queued, delivering, succeeded or failed (given up).' }),
    attempt_count: z.int().min(0).max(100).meta({ example: 1 }),
    next_attempt_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'While pending: when it is tried again.' }),
    created_at: z.iso.datetime({ offset: true }),
    attempts: z.array(WebhookAttemptSchema).meta({ description: 'Every attempt, newest first.' }),
  })
  .meta({ id: 'WebhookDelivery', description: 'A delivery of an event to an endpoint, with every attempt.' })

function toApiDelivery(endpointId: string, delivery: WebhookDeliveryView) {
  return {
    id: delivery.id,
    endpoint_id: endpointId,
    event_type: delivery.eventType,
    message_id: delivery.messageId,
    state: delivery.state,
    attempt_count: delivery.attemptCount,
    next_attempt_at: delivery.nextAttemptAt,
    created_at: delivery.createdAt,
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: attempt.attemptedAt,
      http_status: attempt.httpStatus,
      duration_ms: attempt.durationMs,
      response_excerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
  }
}

/** A 422 on `path` for a URL the SSRF guard refuses: an endpoint's, and an export's callback (exports.ts). */
export async function refuseWebhookUrl(ctx: ApiContext, url: string, path = 'body.url') {
  const refusal = await checkWebhookUrl(url, webhookNetwork())
  if (refusal) apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path, message: ctx.t(`webhooks.errors.url_${refusal}`) }])
}
const ListCursor = CreatedCursor
const ENDPOINT_LOCATION = '/api/v1/webhook-endpoints/{id}'

function toApi(endpoint: WebhookEndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_at: endpoint.disabledAt,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince,
    created_at: endpoint.createdAt,
  }
}

export const webhookOperations = [
  defineOperation({
    id: 'listWebhookEndpoints',
    method: 'get',
    path: '/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'Your webhook endpoints, newest first',
    query: z.object({ limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of endpoints.', schema: pageOf(WebhookEndpointSchema) } },
    async handler({ ctx, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ListCursor) : null
      const rows = await listWebhookEndpoints(ctx.user, { limit: query.limit + 1, after })
      const page = rows.slice(0, query.limit).map(toApi)
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'createWebhookEndpoint',
    requires: 'integrations',
    method: 'post',
    path: '/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'Add a webhook endpoint',
    description: `Its URL must be https on a public address (checked now, and again at every delivery). The answer holds the signing secret, shown this once. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints, one per URL: creating one for a URL you already have answers that endpoint (200, without its secret, events unchanged) instead of a second subscription.`,
    body: WebhookEndpointFieldsSchema.meta({ id: 'CreateWebhookEndpoint' }),
    responses: {
      201: { description: 'The endpoint, with its secret.', schema: CreatedWebhookEndpointSchema, location: ENDPOINT_LOCATION },
      200: { description: 'You already have an endpoint for this URL: that one, unchanged.', schema: WebhookEndpointSchema, location: ENDPOINT_LOCATION },
      409: { description: `You already have ${MAX_WEBHOOK_ENDPOINTS} endpoints (\`too_many_endpoints\`).` },
    },
    async handler({ ctx, body }): Promise<ApiAnswer> {
      await refuseWebhookUrl(ctx, body.url)
      const result = await createWebhookEndpoint(ctx.user, body)
      if (!result.ok && result.reason === 'exists') return { status: 200, body: toApi(result.endpoint), headers: { ...locationOf('webhook-endpoints', result.endpoint.id), 'Cache-Control': 'no-store' } }
      if (!result.ok) apiProblem(409, 'too_many_endpoints', ctx.t('webhooks.errors.tooMany', { max: MAX_WEBHOOK_ENDPOINTS }))
      return { status: 201, body: { ...toApi(result.endpoint), secret: result.secret }, headers: { ...locationOf('webhook-endpoints', result.endpoint.id), 'Cache-Control': 'no-store' } }
    },
  }),
  defineOperation({
    id: 'getWebhookEndpoint',
    method: 'get',
    path: '/webhook-endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'A webhook endpoint',
    params: EndpointIdParams,
    responses: { 200: { description: 'The endpoint.', schema: WebhookEndpointSchema } },
    async handler({ ctx, params }) {
      const endpoint = await getWebhookEndpoint(ctx.user, params.id)
      if (!endpoint) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 200, body: toApi(endpoint) }
    },
  }),
  defineOperation({
    id: 'updateWebhookEndpoint',
    requires: 'integrations',
    method: 'patch',
    path: '/webhook-endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Change a webhook endpoint',
    description:
      'Its URL (checked as at creation; one endpoint per URL), its events, or switch it on or off (`enabled`), as its settings page does. Switched off, what it still owed is dropped; switched back on, its failure streak starts afresh. Fields left out keep their value.',
    params: EndpointIdParams,
    body: WebhookEndpointFieldsSchema.partial()
      .extend({ enabled: z.boolean().optional().meta({ description: 'false: nothing is sent to it (a test event still is).' }) })
      .meta({ id: 'UpdateWebhookEndpoint' }),
    responses: {
      200: { description: 'The endpoint as changed.', schema: WebhookEndpointSchema },
      409: { description: 'Another of your endpoints has this URL (`validation_failed` on `body.url`).' },
    },
    async handler({ ctx, params, body }) {
      if (body.url !== undefined) await refuseWebhookUrl(ctx, body.url)
      const result = await updateWebhookEndpoint(ctx.user, params.id, body)
      if (!result.ok && result.reason === 'not_found') apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      if (!result.ok) apiProblem(409, 'validation_failed', ctx.t('webhooks.errors.urlExists'), [{ path: 'body.url', message: ctx.t('webhooks.errors.urlExists') }])
      return { status: 200, body: toApi(result.endpoint) }
    },
  }),
  defineOperation({
    id: 'listWebhookDeliveries',
    method: 'get',
    path: '/webhook-endpoints/{id}/deliveries',
    tag: 'Webhook endpoints',
    summary: "An endpoint's delivery log, newest first",
    description: 'Each delivery with every attempt (time, HTTP status, duration, start of the answer), as its settings page shows them.',
    params: EndpointIdParams,
    query: z.object({ limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of deliveries.', schema: pageOf(WebhookDeliverySchema) } },
    async handler({ ctx, params, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ListCursor) : null
      if (!(await getWebhookEndpoint(ctx.user, params.id))) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      const rows = await listWebhookDeliveries(ctx.user, params.id, { limit: query.limit + 1, after })
      const page = rows.slice(0, query.limit).map((delivery) => toApiDelivery(params.id, delivery))
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'redeliverWebhookDelivery',
    requires: 'integrations',
    method: 'post',
    path: '/webhook-deliveries/{id}/redeliver',
    tag: 'Webhook endpoints',
    summary: 'Send a delivery again',
    description: 'As "Redeliver" in the settings: a new delivery with the same `webhook-id` and body (deduplicate on it), on a fresh retry schedule.',
    params: DeliveryIdParams,
    limit: 'webhookSend',
    responses: {
      202: { description: 'The new delivery is on its way.', schema: z.object({ delivery_id: z.uuid() }) },
      409: { description: 'The delivery is still on its way (`delivery_in_flight`): wait until it succeeds or is given up.' },
    },
    async handler({ ctx, params }) {
      const found = await deliveryState(ctx.user, params.id)
      if (!found) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      const deliveryId = found.settled ? await redeliver(ctx.user, params.id) : null
      if (!deliveryId) apiProblem(409, 'delivery_in_flight', ctx.t('webhooks.notices.busy'))
      return { status: 202, body: { delivery_id: deliveryId } }
    },
  }),
  defineOperation({
    id: 'deleteWebhookEndpoint',
    requires: 'integrations',
    method: 'delete',
    path: '/webhook-endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it, not even a delivery waiting for a retry; its delivery log goes with it.',
    params: EndpointIdParams,
    responses: { 204: { description: 'Deleted.' } },
    async handler({ ctx, params }) {
      if (!(await deleteWebhookEndpoint(ctx.user, params.id))) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 204 }
    },
  }),
  defineOperation({
    id: 'rotateWebhookSecret',
    requires: 'integrations',
    method: 'post',
    path: '/webhook-endpoints/{id}/rotate-secret',
    tag: 'Webhook endpoints',
    summary: 'Rotate the signing secret',
    description:
      'A new secret, shown this once. For `overlap_seconds` (default 86400, at most 604800; 0: none) the current secret keeps signing too: `webhook-signature` then carries two `v1,` signatures, the new secret\'s first; switch your receiver to the new secret before `previous_secret_expires_at`. The previous secret is never shown again.',
    params: EndpointIdParams,
    body: z
      .object({ overlap_seconds: z.int().min(0).max(MAX_SECRET_OVERLAP_SECONDS).optional().meta({ description: 'How long the current secret keeps signing, in seconds.', example: DEFAULT_SECRET_OVERLAP_SECONDS }) })
      .meta({ id: 'RotateWebhookSecret' }),
    responses: {
      200: {
        description: 'The new secret.',
        schema: z
          .object({
            id: z.uuid(),
            secret: z.string().meta({ description: 'The new signing secret, `whsec_<base64>`: shown this once.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
            previous_secret_expires_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'Until when the previous secret signs too; null without overlap.' }),
          })
          .meta({ id: 'RotatedWebhookSecret' }),
      },
      404: { description: 'No such endpoint of yours (`not_found`).' },
    },
    async handler({ ctx, params, body }) {
      const rotated = await rotateWebhookSecret(ctx.user, params.id, { overlapSeconds: body.overlap_seconds ?? DEFAULT_SECRET_OVERLAP_SECONDS })
      if (!rotated) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 200, body: { id: params.id, secret: rotated.secret, previous_secret_expires_at: rotated.previousSecretExpiresAt }, headers: { 'Cache-Control': 'no-store' } }
    },
  }),
  defineOperation({
    id: 'testWebhookEndpoint',
    requires: 'integrations',
    method: 'post',
    path: '/webhook-endpoints/{id}/test',
    tag: 'Webhook endpoints',
    summary: 'Send a test event',
    description: 'Sends `{ "type": "test", "timestamp", "data": {} }`, signed like every delivery, within a second or so; the attempt is logged in your settings.',
    params: EndpointIdParams,
    limit: 'webhookSend',
    responses: { 202: { description: 'The test event is on its way.', schema: z.object({ delivery_id: z.uuid() }) } },
    async handler({ ctx, params }) {
      const deliveryId = await sendTestEvent(ctx.user, params.id)
      if (!deliveryId) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 202, body: { delivery_id: deliveryId } }
    },
  }),
]

const SIGNATURE_HEADERS = z.object({
  'webhook-id': z.string().meta({ description: 'The message id: the same for a retry or a redelivery of the same event; process each id once.' }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds when this attempt was signed.' }),
  'webhook-signature': z.string().meta({ description: '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint secret (Standard Webhooks).' }),
})

const WebhookEventSchema = z
  .object({
    type: z.enum([...WEBHOOK_EVENTS, 'test']),
    timestamp: z.iso.datetime({ offset: true }).meta({ description: 'When the event happened.' }),
    data: z.object({ export: ApiExportSchema.optional().meta({ description: 'The export, as GET /exports/{id} shows it (absent for `test`).' }) }),
  })
  .meta({ id: 'WebhookEvent', description: 'The body of a delivery.' })

/** The deliveries an endpoint receives, described in the document's `webhooks` section (OpenAPI 3.1). */
export function webhookEventsDocument() {
  const described: Record<string, string> = {
    'export.completed': 'An export finished: its leads and files are ready.',
    'export.failed': 'An export failed.',
    'export.interrupted': 'An export stopped because the credits ran out; it can be resumed.',
    'saved_search.run_completed': 'A run of a saved search finished.',
    test: 'Sent on request (POST /webhook-endpoints/{id}/test, or "Send test event" in the settings), with `data: {}`.',
  }
  return Object.fromEntries(
    Object.entries(described).map(([event, description]) => [
      event,
      {
        post: {
          summary: event,
          description: `${description} POSTed to every enabled endpoint subscribed to it${event.startsWith('export.') ? ', and once to the export\'s own `webhook_url` if it was created with one' : ''}; answer 2xx within 10 seconds, else it is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h later).`,
          requestParams: { header: SIGNATURE_HEADERS },
          requestBody: { required: true, content: { 'application/json': { schema: WebhookEventSchema } } },
          responses: { '200': { description: 'Any 2xx answer: delivered.' } },
        },
      },
    ]),
  )
}
