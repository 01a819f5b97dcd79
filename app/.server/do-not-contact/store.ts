/**
 * The user's do-not-contact list in the database: read, add, remove, as the user (RLS), and read whole by the
 * export worker (admin connection) to build the gates. Entries arrive already canonical (app/domain/do-not-contact.ts).
 * A business entry keeps the name and city the user's own leads give it when it is added (business-labels.ts), so the
 * list stays readable once the export that showed it is deleted.
 */
import { sql, type Kysely } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser, type Database } from '#app/.server/db.ts'
import { DNC_KINDS, DNC_MAX_ENTRIES, DNC_PAGE_SIZE, type DncEntry, type DncKind, type DncListedEntry } from '#app/domain/do-not-contact.ts'
import { businessLabels } from './business-labels.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'
import { recordTeamEvent } from '#app/.server/workspaces/events.ts'

interface DncRow extends DncListedEntry {
  id: string
}

export interface DncPage {
  entries: DncRow[]
  total: number
  page: number
  pageCount: number
}

function isKind(kind: string): kind is DncKind {
  return (DNC_KINDS as readonly string[]).includes(kind)
}

const LISTED_COLUMNS = ['kind', 'value', 'business_name', 'business_city', 'source', 'created_at'] as const

function listedEntry(row: { kind: string; value: string; business_name: string | null; business_city: string | null; source: string | null; created_at: Date }): DncListedEntry {
  const source = row.source === 'hubspot' || row.source === 'brevo' ? row.source : null
  return { kind: row.kind as DncKind, value: row.value, name: row.business_name, city: row.business_city, source, createdAt: row.created_at.toISOString() }
}

/** One page of the list, newest first. */
export function listDncPage(user: SessionUser, page: number): Promise<DncPage> {
  return withUser(user.claims, async (trx) => {
    const { count } = await trx.selectFrom('do_not_contact').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', user.workspace.id).executeTakeFirstOrThrow()
    const total = Number(count)
    const pageCount = Math.max(1, Math.ceil(total / DNC_PAGE_SIZE))
    const current = Math.min(Math.max(1, page), pageCount)
    const rows = await trx
      .selectFrom('do_not_contact')
      .select(['id', ...LISTED_COLUMNS])
      .where('user_id', '=', user.workspace.id)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(DNC_PAGE_SIZE)
      .offset((current - 1) * DNC_PAGE_SIZE)
      .execute()
    const entries = rows.filter((row) => isKind(row.kind)).map((row) => ({ id: row.id, ...listedEntry(row) }))
    return { entries, total, page: current, pageCount }
  })
}

export type AddOutcome = { ok: true; added: number } | { ok: false; code: 'too_many'; room: number }

/**
 * Adds entries (already listed ones are skipped). All or nothing: a batch that would take the list past the cap
 * adds none, so the user can trim it and try again. The cap is checked under a per-user lock so two imports at
 * once cannot both pass it.
 */
export async function addDncEntries(user: SessionUser, entries: readonly DncEntry[]): Promise<AddOutcome> {
  requirePermission(user, 'dncAdd')
  if (entries.length === 0) return { ok: true, added: 0 }
  return withUser(user.claims, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('do_not_contact'), hashtext(${user.workspace.id}))`.execute(trx)
    const { count } = await trx.selectFrom('do_not_contact').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', user.workspace.id).executeTakeFirstOrThrow()
    const room = DNC_MAX_ENTRIES - Number(count)
    // Upper bound (some may already be listed): refusing a few early is better than passing the cap.
    if (entries.length > room) {
      const listed = await countListed(trx, user.workspace.id, entries)
      if (entries.length - listed > room) return { ok: false as const, code: 'too_many' as const, room: Math.max(0, room) }
    }
    const labels = await businessLabels(trx, user.workspace.id, entries)
    let added = 0
    for (let i = 0; i < entries.length; i += 1000) {
      const chunk = entries.slice(i, i + 1000).map((entry) => {
        const label = entry.kind === 'business' ? labels.get(entry.value) : undefined
        return { user_id: user.workspace.id, kind: entry.kind, value: entry.value, business_name: label?.name ?? null, business_city: label?.city ?? null }
      })
      const result = await trx.insertInto('do_not_contact').values(chunk).onConflict((oc) => oc.columns(['user_id', 'kind', 'value']).doNothing()).executeTakeFirst()
      added += Number(result.numInsertedOrUpdatedRows ?? 0)
    }
    await scrubListedAddresses(trx, user.workspace.id, entries)
    if (added > 0) await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'dnc_added', data: { count: added } })
    return { ok: true as const, added }
  })
}

/**
 * Removes newly listed addresses (and addresses at newly listed domains) from the emails the user's leads already
 * hold: a lead is shared by all the user's exports, so an opt-out must also leave the results already delivered.
 */
async function scrubListedAddresses(trx: Kysely<Database>, userId: string, entries: readonly DncEntry[]): Promise<void> {
  const emails = entries.filter((entry) => entry.kind === 'email').map((entry) => entry.value)
  const domains = entries.filter((entry) => entry.kind === 'domain').map((entry) => entry.value)
  if (emails.length === 0 && domains.length === 0) return
  const listed = (address: ReturnType<typeof sql.ref>) => sql`(lower(${address}) = any(${emails}::text[])
    or exists (select 1 from unnest(${domains}::text[]) d
               where split_part(lower(${address}), '@', 2) = d or split_part(lower(${address}), '@', 2) like '%.' || d))`
  await sql`update public.leads set email = array(select a from unnest(email) a where not ${listed(sql.ref('a'))})
    where user_id = ${userId} and exists (select 1 from unnest(email) b where ${listed(sql.ref('b'))})`.execute(trx)
}

async function countListed(trx: Kysely<Database>, userId: string, entries: readonly DncEntry[]): Promise<number> {
  let listed = 0
  for (const kind of DNC_KINDS) {
    const values = entries.filter((entry) => entry.kind === kind).map((entry) => entry.value)
    if (values.length === 0) continue
    const { count } = await trx
      .selectFrom('do_not_contact')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('value', 'in', values)
      .executeTakeFirstOrThrow()
    listed += Number(count)
  }
  return listed
}

/** Removes one entry of the user's (someone else's id removes nothing: RLS). */
export async function removeDncEntry(user: SessionUser, id: string): Promise<boolean> {
  requirePermission(user, 'dncRemove')
  return withUser(user.claims, async (trx) => {
    const removed = await trx.deleteFrom('do_not_contact').where('id', '=', id).where('user_id', '=', user.workspace.id).returning('value').executeTakeFirst()
    if (removed) await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'dnc_removed', subject: removed.value })
    return Boolean(removed)
  })
}

/** The whole list (download, export gates). */
export async function readDncList(db: Kysely<Database>, userId: string): Promise<DncEntry[]> {
  const rows = await db.selectFrom('do_not_contact').select(['kind', 'value']).where('user_id', '=', userId).orderBy('kind').orderBy('value').execute()
  return rows.filter((row) => isKind(row.kind)).map((row) => ({ kind: row.kind as DncKind, value: row.value }))
}

/** The whole list, read as the user, with each business's name and city and the day it was added (the download). */
export function readOwnDncList(user: SessionUser): Promise<DncListedEntry[]> {
  return withUser(user.claims, async (trx) => {
    const rows = await trx.selectFrom('do_not_contact').select(LISTED_COLUMNS).where('user_id', '=', user.workspace.id).orderBy('kind').orderBy('value').execute()
    return rows.filter((row) => isKind(row.kind)).map(listedEntry)
  })
}
