/**
 * A user's webhook endpoints. Reads run as the user (row-level security; the secret is not even granted to them);
 * writes run on the privileged connection, always filtered by the owner, since the secret they write is the
 * server's alone. Another user's id behaves as a missing one.
 *
 * An export's callback (its `webhook_url`, export_id set) is an endpoint row too, so that delivery treats it as any
 * other; it is no subscription: nothing here but createExportCallback and exportCallbackSecret sees it (listed,
 * counted, changed, rotated, tested or deleted, it behaves as a missing one). It goes with its export.
 */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser, type Database } from '#app/.server/db.ts'
import { isUuid } from '#app/domain/ids.ts'
import { isWebhookEvent, MAX_WEBHOOK_ENDPOINTS, type WebhookEndpointView, type WebhookEvent } from '#app/domain/webhooks.ts'
import { generateWebhookSecret } from './sign.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'
import { recordTeamEvent } from '#app/.server/workspaces/events.ts'

/** The events a callback is told, each at most once (the outbox trigger): whatever ends the export's run. */
const CALLBACK_EVENTS: WebhookEvent[] = ['export.completed', 'export.failed', 'export.interrupted']

const VIEW_COLUMNS = ['id', 'url', 'events', 'enabled', 'disabled_at', 'disabled_reason', 'failing_since', 'created_at'] as const

interface EndpointRow {
  id: string
  url: string
  events: string[]
  enabled: boolean
  disabled_at: Date | string | null
  disabled_reason: string | null
  failing_since: Date | string | null
  created_at: Date | string
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

function toView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events.filter(isWebhookEvent),
    enabled: row.enabled,
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason === 'failing' || row.disabled_reason === 'user' ? row.disabled_reason : null,
    failingSince: iso(row.failing_since),
    createdAt: iso(row.created_at)!,
  }
}

/** The user's endpoints, newest first; `after` is the last one of the previous page ([created_at, id]). */
export async function listWebhookEndpoints(user: SessionUser, options: { limit: number; after?: readonly [string, string] | null }): Promise<WebhookEndpointView[]> {
  const rows = await withUser(user.claims, (trx) => {
    let select = trx.selectFrom('webhook_endpoints').select(VIEW_COLUMNS).where('user_id', '=', user.workspace.id).where('export_id', 'is', null)
    if (options.after) select = select.where(sql<boolean>`(created_at, id) < (${options.after[0]}::timestamptz, ${options.after[1]}::uuid)`)
    return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute()
  })
  return rows.map(toView)
}

export async function getWebhookEndpoint(user: SessionUser, id: string): Promise<WebhookEndpointView | null> {
  if (!isUuid(id)) return null
  const row = await withUser(user.claims, (trx) => trx.selectFrom('webhook_endpoints').select(VIEW_COLUMNS).where('id', '=', id).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).executeTakeFirst())
  return row ? toView(row) : null
}

export type CreateEndpointResult = { ok: true; endpoint: WebhookEndpointView; secret: string } | { ok: false; reason: 'too_many' } | { ok: false; reason: 'exists'; endpoint: WebhookEndpointView }

/** One user's endpoint writes in turn (two at once can pass neither the cap nor the one-URL-once rule). */
async function lockUserEndpoints(trx: Transaction<Database>, user: SessionUser) {
  await sql`select pg_advisory_xact_lock(hashtext('webhook_endpoints'), hashtext(${user.workspace.id}))`.execute(trx)
}

/** The user's endpoint already delivering to this URL (another than `except`), if any. */
async function endpointWithUrl(trx: Transaction<Database>, user: SessionUser, url: string, except?: string) {
  let select = trx.selectFrom('webhook_endpoints').select(VIEW_COLUMNS).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).where('url', '=', url)
  if (except) select = select.where('id', '<>', except)
  return select.executeTakeFirst()
}

/**
 * A new endpoint with its secret (the only time it leaves the server); too_many at MAX_WEBHOOK_ENDPOINTS; exists
 * (with it) when the user already has an endpoint for this URL: a retried creation never makes a second
 * subscription, which would deliver every event twice.
 */
export async function createWebhookEndpoint(user: SessionUser, input: { url: string; events: WebhookEvent[] }): Promise<CreateEndpointResult> {
  requirePermission(user, 'integrations')
  const secret = generateWebhookSecret()
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      await lockUserEndpoints(trx, user)
      const existing = await endpointWithUrl(trx, user, input.url)
      if (existing) return { ok: false, reason: 'exists', endpoint: toView(existing) } as const
      const { count } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).executeTakeFirstOrThrow()
      if (Number(count) >= MAX_WEBHOOK_ENDPOINTS) return { ok: false, reason: 'too_many' } as const
      const row = await trx.insertInto('webhook_endpoints').values({ user_id: user.workspace.id, created_by: user.id, url: input.url, events: input.events, secret }).returning(VIEW_COLUMNS).executeTakeFirstOrThrow()
      await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'webhook_created', subject: input.url })
      return { ok: true, endpoint: toView(row), secret } as const
    })
}

async function updateOwn(user: SessionUser, id: string, change: (trx: Transaction<Database>) => Promise<number>): Promise<boolean> {
  if (!isUuid(id)) return false
  return adminDb()
    .transaction()
    .execute(async (trx) => (await change(trx)) > 0)
}

const own = (db: Kysely<Database> | Transaction<Database>, user: SessionUser, id: string) =>
  db.updateTable('webhook_endpoints').where('id', '=', id).where('user_id', '=', user.workspace.id).where('export_id', 'is', null)

export function updateWebhookEvents(user: SessionUser, id: string, events: WebhookEvent[]): Promise<boolean> {
  return updateOwn(user, id, async (trx) => Number((await own(trx, user, id).set({ events }).executeTakeFirst()).numUpdatedRows))
}

/**
 * Switches an endpoint on or off. Switched back on, its failure streak starts afresh; switched off, what it still owed
 * is dropped (a delivery is never sent to an endpoint its owner turned off).
 */
async function applyEnabled(trx: Transaction<Database>, user: SessionUser, id: string, enabled: boolean): Promise<number> {
  const set = enabled
    ? { enabled: true, disabled_at: null, disabled_reason: null, failing_since: null }
    : { enabled: false, disabled_at: sql<Date>`now()`, disabled_reason: 'user' }
  const updated = Number((await own(trx, user, id).set(set).executeTakeFirst()).numUpdatedRows)
  if (updated && !enabled) await abandonOwedDeliveries(trx, id)
  return updated
}

export function setWebhookEnabled(user: SessionUser, id: string, enabled: boolean): Promise<boolean> {
  return updateOwn(user, id, (trx) => applyEnabled(trx, user, id, enabled))
}

export interface EndpointChanges {
  url?: string
  events?: WebhookEvent[]
  enabled?: boolean
}

export type UpdateEndpointResult = { ok: true; endpoint: WebhookEndpointView } | { ok: false; reason: 'not_found' } | { ok: false; reason: 'exists'; endpoint: WebhookEndpointView }

/**
 * Changes an endpoint's URL, events and on/off state at once (the settings page changes them one form at a time,
 * with updateWebhookEvents and setWebhookEnabled). A URL another endpoint of the user already has is refused (exists).
 */
export async function updateWebhookEndpoint(user: SessionUser, id: string, changes: EndpointChanges): Promise<UpdateEndpointResult> {
  requirePermission(user, 'integrations')
  if (!isUuid(id)) return { ok: false, reason: 'not_found' }
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      await lockUserEndpoints(trx, user)
      const current = await trx.selectFrom('webhook_endpoints').select(VIEW_COLUMNS).where('id', '=', id).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).forUpdate().executeTakeFirst()
      if (!current) return { ok: false, reason: 'not_found' } as const
      if (changes.url !== undefined && changes.url !== current.url) {
        const existing = await endpointWithUrl(trx, user, changes.url, id)
        if (existing) return { ok: false, reason: 'exists', endpoint: toView(existing) } as const
      }
      const set = { ...(changes.url !== undefined ? { url: changes.url } : {}), ...(changes.events ? { events: changes.events } : {}) }
      if (Object.keys(set).length) await own(trx, user, id).set(set).execute()
      if (changes.enabled !== undefined && changes.enabled !== current.enabled) await applyEnabled(trx, user, id, changes.enabled)
      const row = await trx.selectFrom('webhook_endpoints').select(VIEW_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow()
      return { ok: true, endpoint: toView(row) } as const
    })
}

/** Marks what an endpoint still owes as failed (it is off): nothing more is sent to it. */
export async function abandonOwedDeliveries(trx: Transaction<Database>, endpointId: string): Promise<void> {
  await trx.updateTable('webhook_deliveries').set({ state: 'failed', lease_until: null }).where('endpoint_id', '=', endpointId).where('state', 'in', ['pending', 'queued']).execute()
}

export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400

export type RotateSecretResult = { secret: string; previousSecretExpiresAt: string | null }

/**
 * A new secret for the endpoint (shown this once), or null when it is not the user's. For `overlapSeconds` (default
 * 24 h, at most 7 days) the current one keeps signing too, as previous secret; 0: it stops at once.
 */
export async function rotateWebhookSecret(user: SessionUser, id: string, options: { overlapSeconds?: number } = {}): Promise<RotateSecretResult | null> {
  requirePermission(user, 'integrations')
  if (!isUuid(id)) return null
  const overlap = Math.min(Math.max(Math.trunc(options.overlapSeconds ?? DEFAULT_SECRET_OVERLAP_SECONDS), 0), MAX_SECRET_OVERLAP_SECONDS)
  const secret = generateWebhookSecret()
  const set =
    overlap > 0
      ? { secret, previous_secret: sql<string>`secret`, previous_secret_expires_at: sql<Date>`now() + make_interval(secs => ${overlap})` }
      : { secret, previous_secret: null, previous_secret_expires_at: null }
  const row = await withUser(user.claims, (trx) => trx.selectFrom('webhook_endpoints').select('id').where('id', '=', id).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).executeTakeFirst())
  if (!row) return null
  const updated = await own(adminDb(), user, id).set(set).returning('previous_secret_expires_at').executeTakeFirst()
  if (!updated) return null
  return { secret, previousSecretExpiresAt: iso(updated.previous_secret_expires_at) }
}

/** Deletes the endpoint with its deliveries and their log. */
export async function deleteWebhookEndpoint(user: SessionUser, id: string): Promise<boolean> {
  requirePermission(user, 'integrations')
  if (!isUuid(id)) return false
  return adminDb().transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).returning('url').executeTakeFirst()
    if (removed) await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'webhook_deleted', subject: removed.url })
    return Boolean(removed)
  })
}

/**
 * The export's callback to `url`, in the transaction that creates the export (on the privileged role: the secret is
 * the server's), so that no event of the export can come before it. Its secret is read by exportCallbackSecret.
 */
export async function createExportCallback(trx: Transaction<Database>, { userId, exportId, url }: { userId: string; exportId: string; url: string }): Promise<void> {
  await trx.insertInto('webhook_endpoints').values({ user_id: userId, export_id: exportId, url, events: CALLBACK_EVENTS, secret: generateWebhookSecret() }).execute()
}

/**
 * The secret of the user's export's callback, or null when it has none: a replayed creation (same Idempotency-Key,
 * same body) answers what the first one did, so a client that lost that answer can still verify the callback.
 */
export async function exportCallbackSecret(userId: string, exportId: string): Promise<string | null> {
  if (!isUuid(exportId)) return null
  const row = await adminDb().selectFrom('webhook_endpoints').select('secret').where('export_id', '=', exportId).where('user_id', '=', userId).executeTakeFirst()
  return row?.secret ?? null
}
