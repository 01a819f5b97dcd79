/**
 * A workspace's CRM connections: reads run as the member (row-level security; the ciphertext is not granted to
 * them), writes run on the privileged connection, always filtered by the workspace, after the role check (admins:
 * PERMISSIONS.integrations). A connection is stored only once the CRM accepted its credentials and was made ready
 * for our records (prepare), so a push never starts against a CRM that cannot take it.
 */
import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser } from '#app/.server/db.ts'
import { consumeLimit, refused, type Refusal } from '#app/.server/rate-limit.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'
import { recordTeamEvent } from '#app/.server/workspaces/events.ts'
import {
  CRM_PROVIDER_NAMES,
  MAX_CRM_CONNECTIONS,
  readCrmMapping,
  spreadsheetIdOf,
  DEFAULT_CRM_MAPPING,
  isCrmProvider,
  type CrmConnectionView,
  type CrmMapping,
  type CrmProvider,
} from '#app/domain/crm.ts'
import { isUuid } from '#app/domain/ids.ts'
import { CrmAuthError, CrmUnavailableError } from './crm-http.ts'
import { createAdapter, PROVIDER_MODULES } from './providers/index.ts'
import type { ConnectionSettings } from './providers/types.ts'
import { integrationsKeyConfigured, openSecret, sealSecret, secretHint } from './secrets.ts'
import { readOAuthSecret } from './oauth.ts'

const VIEW_COLUMNS = ['id', 'provider', 'label', 'secret_hint', 'settings', 'mapping', 'last_error', 'last_checked_at', 'opt_outs_synced_at', 'created_at'] as const

interface ConnectionRow {
  id: string
  provider: string
  label: string
  secret_hint: string
  settings: unknown
  mapping: unknown
  last_error: string | null
  last_checked_at: Date | string | null
  opt_outs_synced_at: Date | string | null
  created_at: Date | string
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

function toView(row: ConnectionRow): CrmConnectionView {
  const settings = (row.settings ?? {}) as ConnectionSettings
  return {
    id: row.id,
    provider: isCrmProvider(row.provider) ? row.provider : 'hubspot',
    label: row.label,
    secretHint: row.secret_hint,
    mapping: readCrmMapping(row.mapping),
    spreadsheetId: typeof settings.spreadsheetId === 'string' ? settings.spreadsheetId : null,
    lastError: row.last_error,
    lastCheckedAt: iso(row.last_checked_at),
    optOutsSyncedAt: iso(row.opt_outs_synced_at),
    createdAt: iso(row.created_at)!,
  }
}

/** The workspace's connections, oldest first (every member sees them: they choose one to push to). */
export async function listCrmConnections(user: SessionUser): Promise<CrmConnectionView[]> {
  const rows = await withUser(user.claims, (trx) => trx.selectFrom('crm_connections').select(VIEW_COLUMNS).where('user_id', '=', user.workspace.id).orderBy('created_at').orderBy('id').execute())
  return rows.map(toView)
}

export async function getCrmConnection(user: SessionUser, id: string): Promise<CrmConnectionView | null> {
  if (!isUuid(id)) return null
  const row = await withUser(user.claims, (trx) => trx.selectFrom('crm_connections').select(VIEW_COLUMNS).where('id', '=', id).where('user_id', '=', user.workspace.id).executeTakeFirst())
  return row ? toView(row) : null
}

type ConnectFailure = 'key_missing' | 'too_many' | 'invalid_secret' | 'refused' | 'unavailable' | 'rate_limited'
export type ConnectResult = { ok: true; connection: CrmConnectionView } | { ok: false; code: ConnectFailure; reason?: string; refusal?: Refusal }

export interface ConnectInput {
  provider: CrmProvider
  label: string
  secret: string
  spreadsheet?: string | undefined
}

/** Checks the credentials and readies the CRM; the settings to store, or why not. */
async function checkAndPrepare(input: ConnectInput, workspaceId: string): Promise<{ ok: true; settings: ConnectionSettings } | { ok: false; code: ConnectFailure; reason?: string }> {
  const spreadsheetId = input.spreadsheet ? spreadsheetIdOf(input.spreadsheet) : null
  const initial: ConnectionSettings = spreadsheetId ? { spreadsheetId } : {}
  const adapter = createAdapter(input.provider, input.secret, { workspaceId })
  try {
    const tested = await adapter.test(initial)
    if (!tested.ok) return { ok: false, code: 'refused', reason: tested.reason }
    return { ok: true, settings: await adapter.prepare(initial) }
  } catch (error) {
    if (error instanceof CrmAuthError) return { ok: false, code: 'refused', reason: error.message }
    if (error instanceof CrmUnavailableError) return { ok: false, code: 'unavailable' }
    // An answer the adapter could not read (a CRM changed its shapes): the user is told the CRM is unavailable.
    console.error(`[crm] ${input.provider} connect failed:`, error instanceof Error ? error.message : error)
    return { ok: false, code: 'unavailable' }
  }
}

/**
 * Connects a CRM: the credentials are tried (one cheap call), the CRM readied (custom properties, header row), then
 * stored encrypted. Refused without an encryption key, past MAX_CRM_CONNECTIONS, or when the CRM says no (its reason).
 */
export async function connectCrm(user: SessionUser, input: ConnectInput): Promise<ConnectResult> {
  requirePermission(user, 'integrations')
  if (!integrationsKeyConfigured()) return { ok: false, code: 'key_missing' }
  // An OAuth connection's secret is the tokens the CRM handed over: nothing pasted to check.
  if (!readOAuthSecret(input.secret) && PROVIDER_MODULES[input.provider].checkSecret(input.secret)) return { ok: false, code: 'invalid_secret' }
  // Each attempt calls the CRM: counted per member, whichever door it came through.
  const refusal = refused(await consumeLimit('crmConnect', user.id))
  if (refusal) return { ok: false, code: 'rate_limited', refusal }
  const count = await countConnections(user.workspace.id)
  if (count >= MAX_CRM_CONNECTIONS) return { ok: false, code: 'too_many' }
  const prepared = await checkAndPrepare(input, user.workspace.id)
  if (!prepared.ok) return prepared
  const id = crypto.randomUUID()
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      // One workspace's connects in turn: two at once cannot both pass the cap.
      await sql`select pg_advisory_xact_lock(hashtext('crm_connections'), hashtext(${user.workspace.id}))`.execute(trx)
      const { count: now } = await trx.selectFrom('crm_connections').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', user.workspace.id).executeTakeFirstOrThrow()
      if (Number(now) >= MAX_CRM_CONNECTIONS) return { ok: false, code: 'too_many' } as const
      const row = await trx
        .insertInto('crm_connections')
        .values({
          id,
          user_id: user.workspace.id,
          provider: input.provider,
          label: input.label,
          secret_ciphertext: sealSecret(input.secret, id),
          secret_hint: secretHint(input.secret),
          settings: JSON.stringify(prepared.settings),
          mapping: JSON.stringify(DEFAULT_CRM_MAPPING),
          last_checked_at: new Date(),
          created_by: user.id,
        })
        .returning(VIEW_COLUMNS)
        .executeTakeFirstOrThrow()
      await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'crm_connected', subject: `${CRM_PROVIDER_NAMES[input.provider]} – ${input.label}` })
      return { ok: true, connection: toView(row) } as const
    })
}

async function countConnections(workspaceId: string): Promise<number> {
  const { count } = await adminDb().selectFrom('crm_connections').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', workspaceId).executeTakeFirstOrThrow()
  return Number(count)
}

/** A connection with its secret opened, for the server's own use (tests, pushes, opt-out reads). */
export interface OpenConnection {
  id: string
  workspaceId: string
  provider: CrmProvider
  label: string
  secret: string
  settings: ConnectionSettings
  mapping: CrmMapping
  optOutCursor: string | null
}

export async function openConnection(workspaceId: string, id: string): Promise<OpenConnection | null> {
  if (!isUuid(id)) return null
  const row = await adminDb()
    .selectFrom('crm_connections')
    .select(['id', 'user_id', 'provider', 'label', 'secret_ciphertext', 'settings', 'mapping', 'opt_out_cursor'])
    .where('id', '=', id)
    .where('user_id', '=', workspaceId)
    .executeTakeFirst()
  if (!row || !isCrmProvider(row.provider)) return null
  return {
    id: row.id,
    workspaceId: row.user_id,
    provider: row.provider,
    label: row.label,
    secret: openSecret(row.secret_ciphertext, row.id),
    settings: (row.settings ?? {}) as ConnectionSettings,
    mapping: readCrmMapping(row.mapping),
    optOutCursor: row.opt_out_cursor,
  }
}

/** Records the outcome of a check or a push that failed as a whole (null: healthy again). */
export async function markConnection(workspaceId: string, id: string, lastError: string | null): Promise<void> {
  await adminDb()
    .updateTable('crm_connections')
    .set({ last_error: lastError?.slice(0, 500) ?? null, last_checked_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', workspaceId)
    .execute()
}

export type TestResult = { ok: true; account: string } | { ok: false; code: 'not_found' | 'refused' | 'unavailable' | 'rate_limited'; reason?: string; refusal?: Refusal }

/** "Test connection": one cheap call with the stored credentials; the outcome is kept on the connection. */
export async function testCrmConnection(user: SessionUser, id: string): Promise<TestResult> {
  requirePermission(user, 'integrations')
  const connection = await openConnection(user.workspace.id, id)
  if (!connection) return { ok: false, code: 'not_found' }
  const refusal = refused(await consumeLimit('crmConnect', user.id))
  if (refusal) return { ok: false, code: 'rate_limited', refusal }
  const adapter = createAdapter(connection.provider, connection.secret, { workspaceId: connection.workspaceId, connectionId: connection.id })
  try {
    const tested = await adapter.test(connection.settings)
    await markConnection(connection.workspaceId, id, tested.ok ? null : tested.reason)
    return tested.ok ? tested : { ok: false, code: 'refused', reason: tested.reason }
  } catch (error) {
    if (error instanceof CrmAuthError) {
      await markConnection(connection.workspaceId, id, error.message)
      return { ok: false, code: 'refused', reason: error.message }
    }
    if (error instanceof CrmUnavailableError) return { ok: false, code: 'unavailable' }
    console.error(`[crm] ${connection.provider} test failed:`, error instanceof Error ? error.message : error)
    return { ok: false, code: 'unavailable' }
  }
}

export async function saveCrmMapping(user: SessionUser, id: string, mapping: CrmMapping): Promise<boolean> {
  requirePermission(user, 'integrations')
  if (!isUuid(id)) return false
  const result = await adminDb()
    .updateTable('crm_connections')
    .set({ mapping: JSON.stringify(mapping), updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', user.workspace.id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Removes the connection, its memory of records and its reports (the CRM's records stay in the CRM). */
export async function disconnectCrm(user: SessionUser, id: string): Promise<boolean> {
  requirePermission(user, 'integrations')
  if (!isUuid(id)) return false
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      const removed = await trx.deleteFrom('crm_connections').where('id', '=', id).where('user_id', '=', user.workspace.id).returning(['provider', 'label']).executeTakeFirst()
      if (!removed) return false
      await trx
        .updateTable('saved_searches')
        .set({ push_connection_ids: sql<string[]>`array_remove(push_connection_ids, ${id}::uuid)` })
        .where('user_id', '=', user.workspace.id)
        .where(sql<boolean>`${id}::uuid = any(push_connection_ids)`)
        .execute()
      const name = isCrmProvider(removed.provider) ? CRM_PROVIDER_NAMES[removed.provider] : removed.provider
      await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'crm_disconnected', subject: `${name} – ${removed.label}` })
      return true
    })
}
