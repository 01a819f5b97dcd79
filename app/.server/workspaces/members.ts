// Member management (issue 29 items 2–4): roles, monthly caps, removal, leaving, ownership transfer, renaming. Every
// command checks the actor's role itself (forms and API alike) and records its event in the same transaction.
import { sql, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, type Database } from '#app/.server/db.ts'
import { canManageMember, isWorkspaceRole, type AssignableRole, type WorkspaceRole } from '#app/domain/workspace-roles.ts'
import { recordTeamEvent } from './events.ts'
import type { TeamResult } from './invitations.ts'
import { requirePermission } from './roles.ts'

const fail = (code: 'not_found' | 'cannot_manage' | 'owner_cannot_leave') => ({ ok: false as const, code })

interface Target {
  role: WorkspaceRole
  email: string
}

/** The member, locked for this transaction; undefined when not in the actor's workspace. */
async function lockMember(trx: Transaction<Database>, workspaceId: string, memberId: string): Promise<Target | undefined> {
  const { rows } = await sql<{ role: string; email: string | null }>`
    select m.role, u.email from public.workspace_members m left join auth.users u on u.id = m.user_id
     where m.workspace_id = ${workspaceId} and m.user_id = ${memberId} for update of m`.execute(trx)
  const row = rows[0]
  return row && isWorkspaceRole(row.role) ? { role: row.role, email: row.email ?? '' } : undefined
}

/** Runs `change` on a member the actor may manage (never the owner, never oneself, never above the actor's role). */
async function manage(actor: SessionUser, memberId: string, change: (trx: Transaction<Database>, target: Target) => Promise<void>): Promise<TeamResult> {
  requirePermission(actor, 'members')
  return adminDb().transaction().execute(async (trx) => {
    const target = await lockMember(trx, actor.workspace.id, memberId)
    if (!target) return fail('not_found')
    if (memberId === actor.id || !canManageMember(actor.workspace.role, target.role)) return fail('cannot_manage')
    await change(trx, target)
    return { ok: true as const }
  })
}

export function changeMemberRole(actor: SessionUser, memberId: string, role: AssignableRole): Promise<TeamResult> {
  // An admin cannot make someone more than themselves (only the owner makes admins… and admins may, as peers).
  return manage(actor, memberId, async (trx, target) => {
    await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', actor.workspace.id).where('user_id', '=', memberId).execute()
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'role_changed', subject: target.email, data: { from: target.role, to: role } })
  })
}

/** Sets or clears (null) the member's monthly credit cap; the ledger function holds every debit to it. */
export function setMemberCap(actor: SessionUser, memberId: string, cap: number | null): Promise<TeamResult> {
  requirePermission(actor, 'members')
  return adminDb().transaction().execute(async (trx) => {
    const target = await lockMember(trx, actor.workspace.id, memberId)
    if (!target) return fail('not_found')
    // Owners may cap anyone but themselves out of their own pool; admins the members below them.
    if (target.role === 'owner' || (memberId !== actor.id && !canManageMember(actor.workspace.role, target.role))) return fail('cannot_manage')
    await trx.updateTable('workspace_members').set({ monthly_credit_cap: cap }).where('workspace_id', '=', actor.workspace.id).where('user_id', '=', memberId).execute()
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'cap_changed', subject: target.email, data: { cap } })
    return { ok: true as const }
  })
}

export function removeMember(actor: SessionUser, memberId: string): Promise<TeamResult> {
  return manage(actor, memberId, async (trx, target) => {
    await trx.deleteFrom('workspace_members').where('workspace_id', '=', actor.workspace.id).where('user_id', '=', memberId).execute()
    // Their keys stop acting for the team at once (the key check also reads the membership).
    await trx.updateTable('api_keys').set({ revoked_at: sql`now()` }).where('user_id', '=', actor.workspace.id).where('created_by', '=', memberId).where('revoked_at', 'is', null).execute()
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'member_removed', subject: target.email })
  })
}

/** The user leaves the current workspace (the owner must hand it over first). What they made stays with the team. */
export async function leaveWorkspace(user: SessionUser): Promise<TeamResult> {
  if (user.workspace.role === 'owner') return fail('owner_cannot_leave')
  return adminDb().transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('workspace_members').where('workspace_id', '=', user.workspace.id).where('user_id', '=', user.id).where('role', '<>', 'owner').executeTakeFirst()
    if (!gone.numDeletedRows) return fail('not_found')
    await trx.updateTable('api_keys').set({ revoked_at: sql`now()` }).where('user_id', '=', user.workspace.id).where('created_by', '=', user.id).where('revoked_at', 'is', null).execute()
    await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'member_left', subject: user.email })
    return { ok: true as const }
  })
}

/** The owner hands the workspace to another member, and stays as an admin. */
export async function transferOwnership(actor: SessionUser, memberId: string): Promise<TeamResult> {
  requirePermission(actor, 'billing')
  return adminDb().transaction().execute(async (trx) => {
    const target = await lockMember(trx, actor.workspace.id, memberId)
    if (!target) return fail('not_found')
    if (memberId === actor.id) return fail('cannot_manage')
    // Demote first: one owner at a time (unique index).
    await trx.updateTable('workspace_members').set({ role: 'admin' }).where('workspace_id', '=', actor.workspace.id).where('user_id', '=', actor.id).execute()
    await trx.updateTable('workspace_members').set({ role: 'owner', monthly_credit_cap: null }).where('workspace_id', '=', actor.workspace.id).where('user_id', '=', memberId).execute()
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'ownership_transferred', subject: target.email })
    return { ok: true as const }
  })
}

export async function renameWorkspace(actor: SessionUser, name: string): Promise<TeamResult> {
  requirePermission(actor, 'billing')
  await adminDb().transaction().execute(async (trx) => {
    await trx.updateTable('workspaces').set({ name }).where('id', '=', actor.workspace.id).execute()
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'workspace_renamed', subject: name, data: { from: actor.workspace.name } })
  })
  return { ok: true }
}
