// The team's activity log as its admins read it (issue 29 item 8): pages of events, and the whole log as CSV.
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb } from '#app/.server/db.ts'
import { requirePermission } from './roles.ts'
import { TEAM_EVENT_KINDS, type TeamEventKind } from './events.ts'

export interface ActivityEntry {
  id: string
  kind: TeamEventKind
  actor: string | null
  subject: string | null
  data: Record<string, unknown>
  createdAt: string
}

const ACTIVITY_PAGE_SIZE = 50
const CSV_MAX_ROWS = 100_000

function query(workspaceId: string) {
  return adminDb()
    .selectFrom('team_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .leftJoin(sql<{ id: string; email: string | null }>`auth.users`.as('a'), 'a.id', 'e.actor_id')
    .select(['e.id', 'e.kind', 'e.subject', 'e.data', 'e.created_at', sql<string | null>`coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), a.email)`.as('actor')])
    .where('e.workspace_id', '=', workspaceId)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
}

function toEntry(row: { id: number | string; kind: string; subject: string | null; data: unknown; created_at: Date; actor: string | null }): ActivityEntry[] {
  if (!(TEAM_EVENT_KINDS as readonly string[]).includes(row.kind)) return []
  return [{ id: String(row.id), kind: row.kind as TeamEventKind, actor: row.actor, subject: row.subject, data: (row.data ?? {}) as Record<string, unknown>, createdAt: row.created_at.toISOString() }]
}

/** One page (0-based) of the current workspace's events, newest first; `more` when an older page exists. */
export async function readActivityPage(user: SessionUser, page: number): Promise<{ entries: ActivityEntry[]; more: boolean }> {
  requirePermission(user, 'members')
  const rows = await query(user.workspace.id).limit(ACTIVITY_PAGE_SIZE + 1).offset(page * ACTIVITY_PAGE_SIZE).execute()
  return { entries: rows.slice(0, ACTIVITY_PAGE_SIZE).flatMap(toEntry), more: rows.length > ACTIVITY_PAGE_SIZE }
}

export async function readActivityLog(user: SessionUser): Promise<ActivityEntry[]> {
  requirePermission(user, 'members')
  return (await query(user.workspace.id).limit(CSV_MAX_ROWS).execute()).flatMap(toEntry)
}
