/**
 * What a user asks of deliveries: the log of an endpoint (deliveries with their attempts), a test event, and
 * "Redeliver". New deliveries are written as pending; the delivery worker (delivery.ts) picks them up within a
 * fraction of a second.
 */
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser } from '#app/.server/db.ts'
import { isUuid } from '#app/domain/ids.ts'
import { DELIVERY_STATES, webhookPayload, type DeliveryState, type WebhookDeliveryView, type WebhookEventType } from '#app/domain/webhooks.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'

/** The log shows this many deliveries, newest first. */
const DELIVERIES_SHOWN = 50

const iso = (value: Date | string) => new Date(value).toISOString()

/**
 * The endpoint's deliveries and every attempt of each, newest first (empty when it is not the user's): the settings
 * page shows the latest DELIVERIES_SHOWN; the API pages through all of them (`after`: the [created_at, id] of the
 * previous page's last).
 */
export async function listWebhookDeliveries(
  user: SessionUser,
  endpointId: string,
  { limit = DELIVERIES_SHOWN, after }: { limit?: number; after?: readonly [string, string] | null } = {},
): Promise<WebhookDeliveryView[]> {
  if (!isUuid(endpointId)) return []
  return withUser(user.claims, async (trx) => {
    let select = trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_type', 'message_id', 'state', 'attempt_count', 'next_attempt_at', 'created_at'])
      .where('endpoint_id', '=', endpointId)
      .where('user_id', '=', user.workspace.id)
    if (after) select = select.where(sql<boolean>`(created_at, id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`)
    const deliveries = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
    const attempts = deliveries.length
      ? await trx
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'attempted_at', 'http_status', 'duration_ms', 'response_excerpt', 'error'])
          .where('delivery_id', 'in', deliveries.map((delivery) => delivery.id))
          .where('user_id', '=', user.workspace.id)
          .orderBy('attempted_at', 'desc')
          .execute()
      : []
    return deliveries.map((delivery) => {
      const state = DELIVERY_STATES.find((known) => known === delivery.state) ?? 'pending'
      return {
        id: delivery.id,
        eventType: delivery.event_type as WebhookEventType,
        messageId: delivery.message_id,
        state,
        attemptCount: delivery.attempt_count,
        nextAttemptAt: state === 'pending' ? iso(delivery.next_attempt_at) : null,
        createdAt: iso(delivery.created_at),
        attempts: attempts
          .filter((attempt) => attempt.delivery_id === delivery.id)
          .map((attempt) => ({
            attemptedAt: iso(attempt.attempted_at),
            httpStatus: attempt.http_status,
            durationMs: attempt.duration_ms,
            responseExcerpt: attempt.response_excerpt,
            error: attempt.error,
          })),
      }
    })
  })
}

/** Queues a `test` event to the user's endpoint (even a disabled one: it is how an owner checks a fix); null if not theirs. */
export async function sendTestEvent(user: SessionUser, endpointId: string, now = new Date()): Promise<string | null> {
  requirePermission(user, 'integrations')
  if (!isUuid(endpointId)) return null
  const row = await adminDb()
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'user_id', 'event_type', 'occurred_at', 'payload'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints')
        .select([
          'id',
          'user_id',
          eb.val<WebhookEventType>('test').as('event_type'),
          eb.val(now).as('occurred_at'),
          eb.val(JSON.stringify(webhookPayload('test', now))).as('payload'),
        ])
        .where('id', '=', endpointId)
        .where('user_id', '=', user.workspace.id)
        .where('export_id', 'is', null),
    )
    .returning('id')
    .executeTakeFirst()
  return row?.id ?? null
}

/** Whether the user has this delivery, and whether it is settled (delivered or given up), so it can be sent again. */
export async function deliveryState(user: SessionUser, deliveryId: string): Promise<{ endpointId: string; settled: boolean } | null> {
  if (!isUuid(deliveryId)) return null
  const row = await withUser(user.claims, (trx) => trx.selectFrom('webhook_deliveries').select(['endpoint_id', 'state']).where('id', '=', deliveryId).where('user_id', '=', user.workspace.id).executeTakeFirst())
  return row ? { endpointId: row.endpoint_id, settled: row.state === 'succeeded' || row.state === 'failed' } : null
}

/**
 * Sends a delivery again, as a new delivery with the same `webhook-id` and the same body (receivers deduplicate on
 * the id), on a fresh retry schedule. Null when the delivery is not the user's or is still on its way.
 */
export async function redeliver(user: SessionUser, deliveryId: string): Promise<string | null> {
  requirePermission(user, 'integrations')
  if (!isUuid(deliveryId)) return null
  const settled: DeliveryState[] = ['succeeded', 'failed']
  const row = await adminDb()
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'user_id', 'event_type', 'message_id', 'export_id', 'occurred_at', 'payload'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'user_id', 'event_type', 'message_id', 'export_id', 'occurred_at', 'payload'])
        .where('id', '=', deliveryId)
        .where('user_id', '=', user.workspace.id)
        .where('state', 'in', settled),
    )
    .returning('id')
    .executeTakeFirst()
  return row?.id ?? null
}
