/**
 * Running one push: the export's leads read page by page as the member who pushed (the API's lead, so a CRM gets
 * exactly what the API and the file give), each turned into a CrmRecord (app/domain/crm.ts), held to today's
 * do-not-contact list, matched to what this connection pushed before (crm_records, by any dedupe key), then upserted
 * by the provider's adapter. Every batch's outcomes are written with the counts in one transaction before the next
 * batch, so a retried job (a CRM outage, a worker that died) goes on after the leads already reported.
 */
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb } from '#app/.server/db.ts'
import { readDncList } from '#app/.server/do-not-contact/store.ts'
import { loadApiLeadsPage, type LeadPosition } from '#app/.server/exports/api-leads.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { notify } from '#app/.server/notifications/store.ts'
import { memberSession } from '#app/.server/workspaces/current.ts'
import { allowedRecord } from '#app/domain/crm-opt-outs.ts'
import { toCrmRecord, type CrmRecord, type CrmRowResult } from '#app/domain/crm.ts'
import { indexDncList, type DncIndex } from '#app/domain/do-not-contact.ts'
import type { ApiLead } from '#app/domain/api-lead.ts'
import { markConnection, openConnection, type OpenConnection } from './connections.ts'
import { CrmAuthError, CrmUnavailableError } from './crm-http.ts'
import { createAdapter } from './providers/index.ts'
import type { CrmAdapter, ConnectionSettings } from './providers/types.ts'

export interface PushRunOptions {
  /** The job's last attempt: an outage now fails the push (reported, notified) instead of retrying. */
  finalAttempt?: boolean
  log?: (message: string) => void
  signal?: AbortSignal
}

export interface PushRunResult {
  /** busy: another push of the same workspace runs; this one stays queued (sent again when that one ends, or by the sweep). */
  outcome: 'completed' | 'failed' | 'gone' | 'busy'
  /** Set when the job should be retried (the CRM was unavailable). */
  retry?: string
  /** The workspace's next queued push, to send now that this one ended. */
  next?: string
}

/** The workspace's oldest queued push, once one has ended. */
async function nextQueued(workspaceId: string): Promise<string | undefined> {
  const row = await adminDb().selectFrom('crm_pushes').select('id').where('user_id', '=', workspaceId).where('status', '=', 'queued').orderBy('created_at').limit(1).executeTakeFirst()
  return row?.id
}

interface ClaimedPush {
  id: string
  workspaceId: string
  connectionId: string
  exportId: string
  leadIds: string[] | null
  createdBy: string | null
}

/** A running push whose heartbeat is older than this lost its worker. */
const HEARTBEAT_LAPSE = '2 minutes'

/**
 * Takes the push, unless another push of the same workspace is running: one at a time per workspace, so two workers
 * never race on the same CRM records (a sheet's append is not idempotent), and a team with thirty pushes queued holds
 * one worker slot, never all of them, while another team's push waits.
 */
async function claim(pushId: string): Promise<ClaimedPush | 'busy' | null> {
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      const found = await trx.selectFrom('crm_pushes').select('user_id').where('id', '=', pushId).where('status', 'in', ['queued', 'running']).executeTakeFirst()
      if (!found) return null
      await sql`select pg_advisory_xact_lock(hashtext('crm_push'), hashtext(${found.user_id}))`.execute(trx)
      const other = await trx
        .selectFrom('crm_pushes')
        .select('id')
        .where('user_id', '=', found.user_id)
        .where('id', '<>', pushId)
        .where('status', '=', 'running')
        .where(sql<boolean>`heartbeat_at > now() - ${HEARTBEAT_LAPSE}::interval`)
        .executeTakeFirst()
      if (other) return 'busy' as const
      const row = await trx
        .updateTable('crm_pushes')
        .set({ status: 'running', started_at: sql`coalesce(started_at, now())`, heartbeat_at: sql`now()`, error: null })
        .where('id', '=', pushId)
        .where('status', 'in', ['queued', 'running'])
        .returning(['id', 'user_id', 'connection_id', 'export_id', 'lead_ids', 'created_by'])
        .executeTakeFirst()
      return row ? { id: row.id, workspaceId: row.user_id, connectionId: row.connection_id, exportId: row.export_id, leadIds: row.lead_ids, createdBy: row.created_by } : null
    })
}

/** Who the push reads leads as: its author while a member, else the workspace's owner (as a scheduled run). */
async function actorOf(push: ClaimedPush): Promise<SessionUser | null> {
  const author = push.createdBy ? await memberSession(push.createdBy, push.workspaceId) : null
  if (author) return author
  const owner = await adminDb().selectFrom('workspace_members').select('user_id').where('workspace_id', '=', push.workspaceId).where('role', '=', 'owner').executeTakeFirst()
  return owner ? memberSession(owner.user_id, push.workspaceId) : null
}

async function reportedLeads(pushId: string): Promise<Set<string>> {
  const rows = await adminDb().selectFrom('crm_push_items').select('lead_id').where('push_id', '=', pushId).execute()
  return new Set(rows.map((row) => row.lead_id))
}

/** The CRM id each record already has under any of its keys (the best key's, when two records were made). */
async function withRemoteIds(connectionId: string, records: CrmRecord[]): Promise<CrmRecord[]> {
  const keys = [...new Set(records.flatMap((record) => record.aliases))]
  if (!keys.length) return records
  const rows = await adminDb().selectFrom('crm_records').select(['key', 'remote_id']).where('connection_id', '=', connectionId).where('key', 'in', keys).execute()
  const byKey = new Map(rows.map((row) => [row.key, row.remote_id]))
  return records.map((record) => ({ ...record, remoteId: record.aliases.map((alias) => byKey.get(alias)).find(Boolean) ?? null }))
}

/** The outcomes of one batch, the connection's memory of the records and the push's counts, together. */
async function recordBatch(push: ClaimedPush, records: readonly CrmRecord[], results: readonly CrmRowResult[], skippedByDnc: readonly string[]): Promise<void> {
  const items = [
    ...results.map((result) => ({ push_id: push.id, lead_id: result.leadId, user_id: push.workspaceId, outcome: result.outcome, remote_id: result.remoteId?.slice(0, 200) ?? null, reason: result.reason?.slice(0, 500) ?? null })),
    ...skippedByDnc.map((leadId) => ({ push_id: push.id, lead_id: leadId, user_id: push.workspaceId, outcome: 'skipped' as const, remote_id: null, reason: 'do_not_contact' })),
  ]
  if (!items.length) return
  const byLead = new Map(records.map((record) => [record.leadId, record]))
  const memory = results.flatMap((result) =>
    result.remoteId && result.outcome !== 'failed' ? (byLead.get(result.leadId)?.aliases ?? []).map((key) => ({ connection_id: push.connectionId, key, user_id: push.workspaceId, remote_id: result.remoteId!.slice(0, 200) })) : [],
  )
  const count = (outcome: string) => items.filter((item) => item.outcome === outcome).length
  await adminDb()
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('crm_push_items').values(items).onConflict((oc) => oc.columns(['push_id', 'lead_id']).doNothing()).execute()
      if (memory.length) {
        const unique = [...new Map(memory.map((row) => [row.key, row])).values()]
        await trx
          .insertInto('crm_records')
          .values(unique)
          .onConflict((oc) => oc.columns(['connection_id', 'key']).doUpdateSet({ remote_id: sql`excluded.remote_id`, updated_at: sql`now()` }))
          .execute()
      }
      await trx
        .updateTable('crm_pushes')
        .set({
          created: sql`created + ${count('created')}`,
          updated: sql`updated + ${count('updated')}`,
          skipped: sql`skipped + ${count('skipped')}`,
          failed: sql`failed + ${count('failed')}`,
          heartbeat_at: sql`now()`,
        })
        .where('id', '=', push.id)
        .execute()
    })
}

interface Walk {
  push: ClaimedPush
  actor: SessionUser
  connection: OpenConnection
  adapter: CrmAdapter
  settings: ConnectionSettings
  dnc: DncIndex
  done: Set<string>
}

/** Pushes one page of leads, but those an earlier attempt of this push already reported. */
async function pushPage(walk: Walk, leads: readonly ApiLead[]): Promise<void> {
  const wanted = leads.filter((lead) => !walk.done.has(lead.id))
  if (!wanted.length) return
  const skippedByDnc: string[] = []
  const records: CrmRecord[] = []
  for (const lead of wanted) {
    const record = allowedRecord(toCrmRecord(lead), lead, walk.dnc)
    if (record) records.push(record)
    else skippedByDnc.push(lead.id)
  }
  const matched = await withRemoteIds(walk.connection.id, records)
  const results = matched.length ? await walk.adapter.upsert(matched, walk.connection.mapping, walk.settings) : []
  await recordBatch(walk.push, matched, results, skippedByDnc)
}

async function walkLeads(walk: Walk, signal?: AbortSignal): Promise<void> {
  let after: LeadPosition | null = null
  for (;;) {
    signal?.throwIfAborted()
    const page = await loadApiLeadsPage(walk.actor.claims, walk.push.exportId, { limit: walk.adapter.batchSize, after, lang: 'en', leadIds: walk.push.leadIds })
    if (!page) return
    await pushPage(walk, page.data)
    if (!page.next) return
    after = page.next
  }
}

/** Why a push needs its author's attention (notifications.reasons.*). */
type PushFailureReason = 'rows_failed' | 'auth' | 'unavailable' | 'connection_missing' | 'no_member'

async function finish(push: ClaimedPush, status: 'completed' | 'failed', error: string | null, reason: PushFailureReason = 'rows_failed'): Promise<void> {
  const row = await adminDb()
    .updateTable('crm_pushes')
    .set({ status, error: error?.slice(0, 500) ?? null, finished_at: new Date() })
    .where('id', '=', push.id)
    .returning(['failed', 'export_id'])
    .executeTakeFirst()
  if (!row || (status === 'completed' && row.failed === 0)) return
  const exported = await adminDb().selectFrom('exports').select('name').where('id', '=', row.export_id).executeTakeFirst()
  await notify(adminDb(), push.createdBy ?? push.workspaceId, 'crm_push.failed', { exportId: row.export_id, name: exported?.name ?? '', reason, leadCount: row.failed })
}

/** Runs (or goes on with) a push; never throws for the CRM's refusals, asks for a retry on its outages. */
export async function runCrmPush(pushId: string, options: PushRunOptions = {}): Promise<PushRunResult> {
  const push = await claim(pushId)
  if (!push) return { outcome: 'gone' }
  if (push === 'busy') return { outcome: 'busy' }
  const result = await runClaimed(push, options)
  return result.retry ? result : { ...result, next: await nextQueued(push.workspaceId) }
}

async function runClaimed(push: ClaimedPush, options: PushRunOptions): Promise<PushRunResult> {
  const log = options.log ?? (() => {})
  const [actor, connection] = await Promise.all([actorOf(push), openConnection(push.workspaceId, push.connectionId)])
  if (!actor || !connection) {
    await finish(push, 'failed', actor ? 'connection_missing' : 'no_member', actor ? 'connection_missing' : 'no_member')
    return { outcome: 'failed' }
  }
  const adapter = createAdapter(connection.provider, connection.secret, { workspaceId: push.workspaceId, connectionId: connection.id, ...(options.signal ? { signal: options.signal } : {}) })
  try {
    return await onBehalfOf(push.workspaceId, async () => {
      const settings = await prepared(connection, adapter)
      const dnc = indexDncList(await readDncList(adminDb(), push.workspaceId))
      await walkLeads({ push, actor, connection, adapter, settings, dnc, done: await reportedLeads(push.id) }, options.signal)
      await finish(push, 'completed', null)
      await markConnection(push.workspaceId, connection.id, null)
      log(`push ${push.id}: completed`)
      return { outcome: 'completed' as const }
    })
  } catch (error) {
    if (error instanceof CrmAuthError) {
      await markConnection(push.workspaceId, connection.id, error.message)
      await finish(push, 'failed', `auth: ${error.message}`, 'auth')
      return { outcome: 'failed' }
    }
    if (error instanceof CrmUnavailableError && !options.finalAttempt) return { outcome: 'failed', retry: error.message }
    if (error instanceof CrmUnavailableError) {
      await finish(push, 'failed', `unavailable: ${error.message}`, 'unavailable')
      return { outcome: 'failed' }
    }
    // Anything else (an answer the adapter could not read, the database) is retried; the last attempt says so.
    if (!options.finalAttempt) throw error
    await finish(push, 'failed', `error: ${error instanceof Error ? error.message : String(error)}`, 'unavailable')
    return { outcome: 'failed' }
  }
}

/** The adapter's settings, made ready again if the CRM lost what prepare made (cheap when nothing is missing). */
async function prepared(connection: OpenConnection, adapter: CrmAdapter): Promise<ConnectionSettings> {
  const settings = await adapter.prepare(connection.settings)
  if (JSON.stringify(settings) !== JSON.stringify(connection.settings)) {
    await adminDb().updateTable('crm_connections').set({ settings: JSON.stringify(settings), updated_at: new Date() }).where('id', '=', connection.id).execute()
  }
  return settings
}
