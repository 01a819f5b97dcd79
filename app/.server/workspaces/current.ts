// The workspace a request acts in (issue 29 item 6): the switcher's choice (cookie) when the user is a member of it,
// else their personal workspace, else their oldest membership — the same rule as public.current_workspace_id(),
// which row-level security applies whatever the server decided.
import { sql } from 'kysely'
import { createCookie } from 'react-router'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb } from '#app/.server/db.ts'
import { isUuid } from '#app/domain/ids.ts'
import { isWorkspaceRole, type WorkspaceRole } from '#app/domain/workspace-roles.ts'

export interface Membership {
  id: string
  name: string
  role: WorkspaceRole
  /** The workspace made for this user at sign-up (its id is theirs). */
  personal: boolean
  /** People in the workspace (1: a single user, whose lists need no "created by" filter). */
  memberCount: number
}

export const workspaceCookie = createCookie('la_workspace', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 60 * 60 * 24 * 365 })

export async function readMemberships(userId: string): Promise<Membership[]> {
  const rows = await adminDb()
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'm.role', sql<number>`(select count(*)::int from public.workspace_members c where c.workspace_id = w.id)`.as('member_count')])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .orderBy('w.id')
    .execute()
  return rows.flatMap((row) => (isWorkspaceRole(row.role) ? [{ id: row.id, name: row.name, role: row.role, personal: row.id === userId, memberCount: row.member_count }] : []))
}

/**
 * A signed-in request's memberships, read with its session check in one round trip (every signed-in request pays
 * it): null when the session no longer exists (signed out), [] when it does but the user belongs to no workspace.
 */
export async function readSessionMemberships(userId: string, sessionId: string): Promise<Membership[] | null> {
  const { rows } = await sql<{ id: string | null; name: string | null; role: string | null; member_count: number | null }>`
    select w.id, w.name, m.role, (select count(*)::int from public.workspace_members c where c.workspace_id = w.id) as member_count
      from auth.sessions s
      left join public.workspace_members m on m.user_id = s.user_id
      left join public.workspaces w on w.id = m.workspace_id
     where s.id = ${sessionId}::uuid and s.user_id = ${userId}::uuid
     order by m.created_at, w.id`.execute(adminDb())
  if (!rows.length) return null
  return rows.flatMap((row) => (row.id && row.name && isWorkspaceRole(row.role) ? [{ id: row.id, name: row.name, role: row.role, personal: row.id === userId, memberCount: row.member_count ?? 1 }] : []))
}

/** The membership a request acts in, by the rule above; undefined when the user belongs to no workspace. */
export function chooseWorkspace(memberships: Membership[], wanted: unknown): Membership | undefined {
  const chosen = typeof wanted === 'string' && isUuid(wanted) ? memberships.find((m) => m.id === wanted) : undefined
  return chosen ?? memberships.find((m) => m.personal) ?? memberships[0]
}

export async function readWorkspaceChoice(cookieHeader: string | null): Promise<unknown> {
  try {
    return await workspaceCookie.parse(cookieHeader)
  } catch {
    return undefined
  }
}

/** A user acting in their personal workspace as its owner (a new account's state; tests and benches build these). */
export function personalSession(id: string, email = ''): SessionUser {
  const workspace: Membership = { id, name: 'Workspace', role: 'owner', personal: true, memberCount: 1 }
  return { id, email, claims: { sub: id, role: 'authenticated', email, workspace_id: id }, metadata: {}, workspace, workspaces: [workspace] }
}

/**
 * A member as the server acts for them without a browser session (an API key, a scheduled run): their role in
 * `workspaceId` read now, so a removed member's key or schedule acts for nobody (null).
 */
export async function memberSession(userId: string, workspaceId: string): Promise<SessionUser | null> {
  const [workspaces, account] = await Promise.all([
    readMemberships(userId),
    sql<{ email: string | null }>`select email from auth.users where id = ${userId}`.execute(adminDb()),
  ])
  const workspace = workspaces.find((m) => m.id === workspaceId)
  if (!workspace) return null
  const email = account.rows[0]?.email ?? ''
  return { id: userId, email, claims: { sub: userId, role: 'authenticated', email, workspace_id: workspaceId }, metadata: {}, workspace, workspaces }
}
