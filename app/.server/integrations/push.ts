/**
 * Starting a push of an export's leads to a CRM connection: the one command the export page's form, the API and a
 * saved search's run share. It checks the role (members push; admins connect), that the export is done and the
 * connection is the workspace's, counts the push in the per-user budget (RATE_LIMIT_CRM_PUSH, given back when
 * refused, not counted for an idempotent replay), and queues the job in the same transaction as the row.
 */
import { sql, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser, type Database } from '#app/.server/db.ts'
import { withinBudget, type Refusal } from '#app/.server/rate-limit.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'
import { CRM_PUSH_STATUSES, isCrmProvider, type CrmPushInput, type CrmPushItemView, type CrmPushStatus, type CrmPushView, type CrmRowOutcome } from '#app/domain/crm.ts'
import { isUuid } from '#app/domain/ids.ts'
import { enqueuePush } from './push-queue.ts'

export type PushFailure = 'export_not_found' | 'export_not_completed' | 'connection_not_found' | 'lead_not_in_export' | 'rate_limited' | 'idempotency_conflict'

/** The HTTP status of each refusal: the page and the API agree. */
export const PUSH_FAILURE_STATUS: Record<PushFailure, number> = {
  export_not_found: 404,
  export_not_completed: 409,
  connection_not_found: 404,
  lead_not_in_export: 422,
  rate_limited: 429,
  idempotency_conflict: 409,
}

export type PushResult = { ok: true; push: CrmPushView; replayed: boolean } | { ok: false; code: PushFailure; refusal?: Refusal }

/** How long a push's idempotency key answers with the push it made (as for exports). */
const IDEMPOTENCY_WINDOW_HOURS = 24

const PUSH_COLUMNS = [
  'p.id',
  'p.connection_id',
  'p.export_id',
  'p.status',
  'p.total',
  'p.created',
  'p.updated',
  'p.skipped',
  'p.failed',
  'p.error',
  'p.created_at',
  'p.finished_at',
  'c.provider',
  'c.label',
] as const

interface PushRow {
  id: string
  connection_id: string
  export_id: string
  status: string
  total: number
  created: number
  updated: number
  skipped: number
  failed: number
  error: string | null
  created_at: Date | string
  finished_at: Date | string | null
  provider: string | null
  label: string | null
}

function toPushView(row: PushRow): CrmPushView {
  const status = (CRM_PUSH_STATUSES as readonly string[]).includes(row.status) ? (row.status as CrmPushStatus) : 'queued'
  return {
    id: row.id,
    connectionId: row.connection_id,
    provider: isCrmProvider(row.provider) ? row.provider : null,
    connectionLabel: row.label,
    exportId: row.export_id,
    status,
    total: row.total,
    counts: { created: row.created, updated: row.updated, skipped: row.skipped, failed: row.failed },
    error: row.error,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  }
}

const pushes = (trx: Transaction<Database>) => trx.selectFrom('crm_pushes as p').leftJoin('crm_connections as c', 'c.id', 'p.connection_id').select(PUSH_COLUMNS)

interface Replay {
  push: CrmPushView
  exportId: string
  connectionId: string
  leadIds: string[] | null
}

async function replayOf(trx: Transaction<Database>, workspaceId: string, key: string): Promise<Replay | null> {
  const row = await pushes(trx)
    .select('p.lead_ids')
    .where('p.user_id', '=', workspaceId)
    .where('p.idempotency_key', '=', key)
    .where(sql<boolean>`p.created_at >= now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`)
    .executeTakeFirst()
  return row ? { push: toPushView(row), exportId: row.export_id, connectionId: row.connection_id, leadIds: row.lead_ids } : null
}

/** The same key with another request is a conflict, never the old push passed off as the new one. */
function sameRequest(replay: Replay, input: CrmPushInput & { exportId: string }): boolean {
  const wanted = input.leadIds?.length ? [...new Set(input.leadIds)].sort() : null
  const stored = replay.leadIds ? [...replay.leadIds].sort() : null
  return replay.exportId === input.exportId && replay.connectionId === input.connectionId && JSON.stringify(wanted) === JSON.stringify(stored)
}

/** Checks and queues one push, in one transaction as the member (RLS: another team's export or connection is missing). */
async function createPush(user: SessionUser, input: CrmPushInput & { exportId: string; idempotencyKey?: string | undefined }): Promise<PushResult> {
  return withUser(user.claims, async (trx) => {
    if (input.idempotencyKey) {
      const replay = await replayOf(trx, user.workspace.id, input.idempotencyKey)
      if (replay) return sameRequest(replay, input) ? { ok: true, push: replay.push, replayed: true } : { ok: false, code: 'idempotency_conflict' }
    }
    const found = await trx.selectFrom('exports').select(['id', 'status', 'lead_count']).where('id', '=', input.exportId).executeTakeFirst()
    if (!found) return { ok: false, code: 'export_not_found' }
    if (found.status !== 'completed') return { ok: false, code: 'export_not_completed' }
    const connection = await trx.selectFrom('crm_connections').select(['provider', 'label']).where('id', '=', input.connectionId).where('user_id', '=', user.workspace.id).executeTakeFirst()
    if (!connection) return { ok: false, code: 'connection_not_found' }
    const leadIds = input.leadIds?.length ? [...new Set(input.leadIds)] : null
    if (leadIds) {
      const { count } = await trx
        .selectFrom('export_leads')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('export_id', '=', input.exportId)
        .where('lead_id', 'in', leadIds)
        .executeTakeFirstOrThrow()
      if (Number(count) !== leadIds.length) return { ok: false, code: 'lead_not_in_export' }
    }
    // Written on the privileged connection: the members' role may read pushes, never write them (a report is the server's).
    const row = await adminDb()
      .insertInto('crm_pushes')
      .values({
        user_id: user.workspace.id,
        connection_id: input.connectionId,
        export_id: input.exportId,
        lead_ids: leadIds,
        total: leadIds ? leadIds.length : found.lead_count,
        idempotency_key: input.idempotencyKey ?? null,
        created_by: user.id,
      })
      .returning(['id', 'connection_id', 'export_id', 'status', 'total', 'created', 'updated', 'skipped', 'failed', 'error', 'created_at', 'finished_at'])
      .executeTakeFirstOrThrow()
    await enqueuePush(row.id)
    return { ok: true, push: toPushView({ ...row, ...connection }), replayed: false }
  })
}

/**
 * Pushes an export's leads (all, or `leadIds`) to a connection of the workspace; a known idempotency key answers the
 * push it made. Not counted in the push budget: the API counts it per operation (RateLimit-* headers), the forms
 * through startCrmPush.
 */
export async function createCrmPush(user: SessionUser, exportId: string, input: CrmPushInput, options: { idempotencyKey?: string | undefined } = {}): Promise<PushResult> {
  requirePermission(user, 'export')
  if (!isUuid(exportId)) return { ok: false, code: 'export_not_found' }
  const key = options.idempotencyKey?.trim().slice(0, 255) || undefined
  return createPush(user, { ...input, exportId, idempotencyKey: key })
}

/** Whether this idempotency key already made a push (a replay is not counted in the budget). */
export async function holdsPushKey(user: SessionUser, idempotencyKey: string): Promise<boolean> {
  const key = idempotencyKey.trim().slice(0, 255)
  return Boolean(key) && Boolean(await withUser(user.claims, (trx) => replayOf(trx, user.workspace.id, key)))
}

/** createCrmPush within the member's push budget (RATE_LIMIT_CRM_PUSH), given back when refused: the push page's door. */
export async function startCrmPush(user: SessionUser, exportId: string, input: CrmPushInput): Promise<PushResult> {
  // Before the budget: a refused role costs no point.
  requirePermission(user, 'export')
  const outcome = await withinBudget('crmPush', user.id, () => createCrmPush(user, exportId, input), { made: (result) => result.ok })
  if (outcome.refused) return { ok: false, code: 'rate_limited', refusal: outcome.refused }
  return outcome.result
}

export async function listExportPushes(user: SessionUser, exportId: string, limit = 10): Promise<CrmPushView[]> {
  if (!isUuid(exportId)) return []
  const rows = await withUser(user.claims, (trx) => pushes(trx).where('p.export_id', '=', exportId).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(limit).execute())
  return rows.map(toPushView)
}

export async function getCrmPush(user: SessionUser, pushId: string): Promise<CrmPushView | null> {
  if (!isUuid(pushId)) return null
  const row = await withUser(user.claims, (trx) => pushes(trx).where('p.id', '=', pushId).executeTakeFirst())
  return row ? toPushView(row) : null
}

/** A page of a push's report (all, or one outcome), in lead id order; `after` is the last lead id of the previous page. */
export async function listPushItems(user: SessionUser, pushId: string, options: { limit: number; after?: string | null; outcome?: CrmRowOutcome | null }): Promise<CrmPushItemView[]> {
  if (!isUuid(pushId)) return []
  const rows = await withUser(user.claims, (trx) => {
    let select = trx
      .selectFrom('crm_push_items as i')
      .innerJoin('leads as l', 'l.id', 'i.lead_id')
      .select(['i.lead_id', 'l.name', 'i.outcome', 'i.remote_id', 'i.reason'])
      .where('i.push_id', '=', pushId)
    if (options.outcome) select = select.where('i.outcome', '=', options.outcome)
    if (options.after && isUuid(options.after)) select = select.where('i.lead_id', '>', options.after)
    return select.orderBy('i.lead_id').limit(options.limit).execute()
  })
  return rows.map((row) => ({ leadId: row.lead_id, name: row.name, outcome: row.outcome as CrmRowOutcome, remoteId: row.remote_id, reason: row.reason }))
}
