// What /settings/team shows (issue 29 item 6): members with their role, cap and credits spent this month,
// pending invitations (admins), and seats. Read for the caller's current workspace only.
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb } from '#app/.server/db.ts'
import { readPlan } from '#app/.server/credits.ts'
import { can, isWorkspaceRole } from '#app/domain/workspace-roles.ts'
import { invitationState, monthStartUtc, seatLimit, type InvitationView, type MemberChoice, type TeamMemberView, type TeamView } from '#app/domain/team.ts'

/** The current workspace's members as the lists' "created by" filter names them; empty for a workspace of one. */
export async function readMemberChoices(user: SessionUser): Promise<MemberChoice[]> {
  if (user.workspace.memberCount < 2) return []
  const { rows } = await sql<{ user_id: string; label: string }>`
    select m.user_id, coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), a.email, '?') as label
      from public.workspace_members m join public.users u on u.id = m.user_id left join auth.users a on a.id = m.user_id
     where m.workspace_id = ${user.workspace.id}
     order by label`.execute(adminDb())
  return rows.length > 1 ? rows.map((row) => ({ id: row.user_id, label: row.label })) : []
}

export async function readTeam(user: SessionUser, now = new Date()): Promise<TeamView> {
  const workspaceId = user.workspace.id
  const db = adminDb()
  const [members, invitations, plan] = await Promise.all([
    sql<{ user_id: string; name: string | null; email: string | null; role: string; monthly_credit_cap: number | null; spent: number; created_at: Date }>`
      select m.user_id, nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '') as name, a.email, m.role, m.monthly_credit_cap, m.created_at,
             coalesce((select -sum(l.delta) from public.credit_ledger l
                        where l.user_id = m.workspace_id and l.member_id = m.user_id and l.created_at >= ${monthStartUtc(now)}), 0)::int as spent
        from public.workspace_members m
        join public.users u on u.id = m.user_id
        left join auth.users a on a.id = m.user_id
       where m.workspace_id = ${workspaceId}
       order by case m.role when 'owner' then 0 when 'admin' then 1 when 'member' then 2 else 3 end, m.created_at`.execute(db),
    can(user.workspace.role, 'members')
      ? db.selectFrom('workspace_invitations').select(['id', 'email', 'role', 'monthly_credit_cap', 'sent_at', 'expires_at', 'accepted_at', 'revoked_at'])
          .where('workspace_id', '=', workspaceId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).orderBy('created_at', 'desc').limit(200).execute()
      : Promise.resolve([]),
    db.transaction().execute((trx) => readPlan(trx, workspaceId)),
  ])
  const { extra_seats: extra } = await db.selectFrom('workspaces').select('extra_seats').where('id', '=', workspaceId).executeTakeFirstOrThrow()
  const memberViews = members.rows.flatMap((row): TeamMemberView[] =>
    isWorkspaceRole(row.role)
      ? [{ userId: row.user_id, name: row.name, email: row.email ?? '', role: row.role, monthlyCap: row.monthly_credit_cap, spentThisMonth: Math.max(0, row.spent), joinedAt: row.created_at.toISOString() }]
      : [],
  )
  const invitationViews = invitations.flatMap((row): InvitationView[] => {
    if (!isWorkspaceRole(row.role)) return []
    const expired = invitationState({ expiresAt: row.expires_at, acceptedAt: row.accepted_at, revokedAt: row.revoked_at }, now) === 'expired'
    return [{ id: row.id, email: row.email, role: row.role, monthlyCap: row.monthly_credit_cap, sentAt: row.sent_at.toISOString(), expiresAt: row.expires_at.toISOString(), expired }]
  })
  const pending = invitationViews.filter((invitation) => !invitation.expired).length
  return {
    workspace: { id: workspaceId, name: user.workspace.name },
    plan,
    seats: { used: memberViews.length + pending, limit: seatLimit(plan, extra), extra },
    members: memberViews,
    invitations: invitationViews,
  }
}
