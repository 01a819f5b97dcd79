/**
 * Opt-outs back from the CRMs that record them (HubSpot's email opt-out, Brevo's blacklist): every
 * OPT_OUT_INTERVAL_MINUTES the sweep reads what changed since the connection's cursor and adds each address to the
 * workspace's do-not-contact list with the CRM as its source, so no later export or push delivers it again.
 */
import { sql } from 'kysely'
import { adminDb } from '#app/.server/db.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { CRM_OPT_OUT_PROVIDERS, isCrmProvider } from '#app/domain/crm.ts'
import { DNC_MAX_ENTRIES, parseDncEntry } from '#app/domain/do-not-contact.ts'
import { openConnection, markConnection } from './connections.ts'
import { CrmAuthError, CrmUnavailableError } from './crm-http.ts'
import { createAdapter } from './providers/index.ts'

const OPT_OUT_INTERVAL_MINUTES = 15
/** Pages read per connection per sweep: a first read of a large CRM goes on at the next sweep. */
const MAX_PAGES = 10
const CONNECTIONS_PER_SWEEP = 50

/** Adds the addresses to the list (kept canonical, never twice, within the list's cap); how many were new. */
async function addOptOuts(workspaceId: string, provider: 'hubspot' | 'brevo', emails: readonly string[]): Promise<number> {
  const entries = [...new Set(emails.map((email) => parseDncEntry(email)).filter((entry) => entry?.kind === 'email').map((entry) => entry!.value))]
  if (!entries.length) return 0
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('do_not_contact'), hashtext(${workspaceId}))`.execute(trx)
      const { count } = await trx.selectFrom('do_not_contact').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', workspaceId).executeTakeFirstOrThrow()
      const room = Math.max(0, DNC_MAX_ENTRIES - Number(count))
      if (!room) return 0
      const inserted = await trx
        .insertInto('do_not_contact')
        .values(entries.slice(0, room).map((value) => ({ user_id: workspaceId, kind: 'email', value, source: provider, created_by: null })))
        .onConflict((oc) => oc.columns(['user_id', 'kind', 'value']).doNothing())
        .returning('id')
        .execute()
      return inserted.length
    })
}

/** Reads one connection's opt-outs since its cursor; the addresses added. */
export async function syncConnectionOptOuts(workspaceId: string, connectionId: string): Promise<number> {
  const connection = await openConnection(workspaceId, connectionId)
  if (!connection || (connection.provider !== 'hubspot' && connection.provider !== 'brevo')) return 0
  const adapter = createAdapter(connection.provider, connection.secret, { workspaceId, connectionId })
  if (!adapter.optOuts) return 0
  let cursor = connection.optOutCursor
  let added = 0
  try {
    await onBehalfOf(workspaceId, async () => {
      for (let page = 0; page < MAX_PAGES; page++) {
        const read = await adapter.optOuts!(cursor)
        added += await addOptOuts(workspaceId, connection.provider as 'hubspot' | 'brevo', read.emails)
        const moved = read.cursor !== cursor
        cursor = read.cursor
        if (!moved || !read.emails.length) break
      }
    })
  } catch (error) {
    if (error instanceof CrmAuthError) await markConnection(workspaceId, connectionId, error.message)
    else if (!(error instanceof CrmUnavailableError)) throw error
  }
  await adminDb().updateTable('crm_connections').set({ opt_out_cursor: cursor, opt_outs_synced_at: new Date() }).where('id', '=', connectionId).execute()
  return added
}

/** The sweep's part: every due connection that reports opt-outs; the addresses added in all. */
export async function syncAllOptOuts({ log = () => {} }: { log?: (message: string) => void } = {}): Promise<number> {
  const due = await adminDb()
    .selectFrom('crm_connections')
    .select(['id', 'user_id', 'provider'])
    .where('provider', 'in', [...CRM_OPT_OUT_PROVIDERS])
    .where((eb) => eb.or([eb('opt_outs_synced_at', 'is', null), eb('opt_outs_synced_at', '<', new Date(Date.now() - OPT_OUT_INTERVAL_MINUTES * 60_000))]))
    .orderBy(sql`opt_outs_synced_at nulls first`)
    .limit(CONNECTIONS_PER_SWEEP)
    .execute()
  let added = 0
  for (const row of due) {
    if (!isCrmProvider(row.provider)) continue
    try {
      added += await syncConnectionOptOuts(row.user_id, row.id)
    } catch (error) {
      // One connection's failure (an unreadable secret after a key change) must not stop the others.
      log(`CRM opt-outs of connection ${row.id} failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return added
}
