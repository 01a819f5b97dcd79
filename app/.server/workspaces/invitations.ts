// Invitations (issue 29 item 3): an admin invites by email; the link's token is single-use and expires in 7 days.
import { createHash, randomBytes } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, getPool, type Database } from '#app/.server/db.ts'
import { createMailer } from '#app/.server/email/mailer.ts'
import { emailLanguage, teamInvitationEmail } from '#app/.server/email/templates.ts'
import { env } from '#app/.server/env.server.ts'
import { readPlan } from '#app/.server/credits.ts'
import { INVITATION_DAYS, invitationExpiry, invitationState, sameEmail, seatsLeft, type InviteInput } from '#app/domain/team.ts'
import { isWorkspaceRole, type WorkspaceRole } from '#app/domain/workspace-roles.ts'
import { recordTeamEvent } from './events.ts'
import { requirePermission } from './roles.ts'
import type { SeatsFailure } from './seats.ts'

export type TeamFailureCode =
  | SeatsFailure
  | 'seats_full'
  | 'already_member'
  | 'already_invited'
  | 'not_found'
  | 'cannot_manage'
  | 'owner_cannot_leave'
  | 'invitation_invalid'
  | 'invitation_expired'
  | 'wrong_account'
export type TeamResult<T = object> = ({ ok: true } & T) | { ok: false; code: TeamFailureCode; email?: string }

const fail = (code: TeamFailureCode, extra: { email?: string } = {}) => ({ ok: false as const, code, ...extra })

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest()
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Serialises a workspace's seat-taking changes (invite, accept) so two at once cannot both take the last seat. */
export async function lockSeats(trx: Transaction<Database>, workspaceId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`workspace:seats:${workspaceId}`}, 0))`.execute(trx)
}

async function seatsFree(trx: Transaction<Database>, workspaceId: string, now: Date): Promise<number> {
  const { rows } = await sql<{ members: number; pending: number; extra: number }>`
    select (select count(*)::int from public.workspace_members where workspace_id = ${workspaceId}) as members,
           (select extra_seats from public.workspaces where id = ${workspaceId}) as extra,
           (select count(*)::int from public.workspace_invitations
             where workspace_id = ${workspaceId} and accepted_at is null and revoked_at is null and expires_at > ${now}) as pending`.execute(trx)
  return seatsLeft(await readPlan(trx, workspaceId), rows[0]?.members ?? 0, rows[0]?.pending ?? 0, rows[0]?.extra ?? 0)
}

interface Sent {
  invitationId: string
  email: string
}

/** Invites `input.email` into the actor's workspace (admins and owners), within the plan's seats, and emails the link. */
export async function inviteMember(actor: SessionUser, input: InviteInput, { origin, now = new Date() }: { origin: string; now?: Date }): Promise<TeamResult<Sent>> {
  requirePermission(actor, 'members')
  const workspaceId = actor.workspace.id
  const token = randomBytes(32).toString('base64url')
  const outcome = await adminDb().transaction().execute(async (trx): Promise<TeamResult<Sent>> => {
    await lockSeats(trx, workspaceId)
    const member = await sql<{ one: number }>`
      select 1 as one from public.workspace_members m join auth.users u on u.id = m.user_id
       where m.workspace_id = ${workspaceId} and lower(u.email) = ${input.email}`.execute(trx)
    if (member.rows.length) return fail('already_member', { email: input.email })
    // An expired invitation for the address gives way to the new one.
    await trx.updateTable('workspace_invitations').set({ revoked_at: now })
      .where('workspace_id', '=', workspaceId).where(sql<boolean>`lower(email) = ${input.email}`)
      .where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '<=', now).execute()
    const pending = await trx.selectFrom('workspace_invitations').select('id').where('workspace_id', '=', workspaceId)
      .where(sql<boolean>`lower(email) = ${input.email}`).where('accepted_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst()
    if (pending) return fail('already_invited', { email: input.email })
    if ((await seatsFree(trx, workspaceId, now)) < 1) return fail('seats_full')
    const row = await trx.insertInto('workspace_invitations')
      .values({ workspace_id: workspaceId, email: input.email, role: input.role, monthly_credit_cap: input.monthlyCap ?? null, token_hash: tokenHash(token), invited_by: actor.id, expires_at: invitationExpiry(now), sent_at: now })
      .returning('id').executeTakeFirstOrThrow()
    await recordTeamEvent(trx, { workspaceId, actorId: actor.id, kind: 'member_invited', subject: input.email, data: { role: input.role } })
    return { ok: true, invitationId: row.id, email: input.email }
  })
  if (outcome.ok) await sendInvitation(actor, outcome.email, token, origin)
  return outcome
}

/** A new link for a pending invitation (the old one stops working), valid 7 days from now. */
export async function resendInvitation(actor: SessionUser, invitationId: string, { origin, now = new Date() }: { origin: string; now?: Date }): Promise<TeamResult<Sent>> {
  requirePermission(actor, 'members')
  const token = randomBytes(32).toString('base64url')
  const row = await adminDb().transaction().execute(async (trx) => {
    const updated = await trx.updateTable('workspace_invitations')
      .set({ token_hash: tokenHash(token), expires_at: invitationExpiry(now), sent_at: now })
      .where('id', '=', invitationId).where('workspace_id', '=', actor.workspace.id)
      .where('accepted_at', 'is', null).where('revoked_at', 'is', null)
      .returning(['id', 'email']).executeTakeFirst()
    if (updated) await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'invitation_resent', subject: updated.email })
    return updated
  })
  if (!row) return fail('not_found')
  await sendInvitation(actor, row.email, token, origin)
  return { ok: true, invitationId: row.id, email: row.email }
}

export async function revokeInvitation(actor: SessionUser, invitationId: string, now = new Date()): Promise<TeamResult> {
  requirePermission(actor, 'members')
  return adminDb().transaction().execute(async (trx) => {
    const row = await trx.updateTable('workspace_invitations').set({ revoked_at: now })
      .where('id', '=', invitationId).where('workspace_id', '=', actor.workspace.id)
      .where('accepted_at', 'is', null).where('revoked_at', 'is', null)
      .returning('email').executeTakeFirst()
    if (!row) return fail('not_found')
    await recordTeamEvent(trx, { workspaceId: actor.workspace.id, actorId: actor.id, kind: 'invitation_revoked', subject: row.email })
    return { ok: true }
  })
}

async function sendInvitation(actor: SessionUser, email: string, token: string, origin: string) {
  const inviter = await sql<{ name: string | null; locale: string | null }>`
    select nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '') as name, a.raw_user_meta_data ->> 'locale' as locale
      from public.users u left join auth.users a on a.id = u.id where u.id = ${actor.id}`.execute(adminDb())
  const who = inviter.rows[0]
  const lang = emailLanguage(who?.locale, 'fr')
  const link = `${env.APP_URL ?? origin}/invitations/${token}`
  const rendered = teamInvitationEmail({ lang, link, workspace: actor.workspace.name, inviter: who?.name ?? actor.email, expiresInDays: INVITATION_DAYS })
  await createMailer({ smtpUrl: env.SMTP_URL, from: env.SMTP_FROM }).send(getPool(), { to: email, ...rendered, link })
}

export interface InvitationPreview {
  state: 'pending' | 'expired' | 'used'
  email: string
  workspaceName: string
  inviterName: string | null
  role: WorkspaceRole
}

async function findByToken(trx: Transaction<Database> | ReturnType<typeof adminDb>, token: string) {
  if (!TOKEN_SHAPE.test(token)) return undefined
  return trx
    .selectFrom('workspace_invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.workspace_id', 'i.email', 'i.role', 'i.monthly_credit_cap', 'i.expires_at', 'i.accepted_at', 'i.revoked_at', 'w.name as workspace_name', sql<string | null>`coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), (select a.email from auth.users a where a.id = i.invited_by))`.as('inviter_name')])
    .where('i.token_hash', '=', tokenHash(token))
    .executeTakeFirst()
}

/** What the invitation page shows before anyone signs in: the team, who invited, for which address. Unknown: null. */
export async function previewInvitation(token: string, now = new Date()): Promise<InvitationPreview | null> {
  const row = await findByToken(adminDb(), token)
  if (!row || !isWorkspaceRole(row.role)) return null
  const state = invitationState({ expiresAt: row.expires_at, acceptedAt: row.accepted_at, revokedAt: row.revoked_at }, now)
  if (state === 'revoked') return null
  return { state: state === 'accepted' ? 'used' : state, email: row.email, workspaceName: row.workspace_name, inviterName: row.inviter_name, role: row.role }
}

/** The signed-in user joins the team the link invites them to: once, before it expires, with the invited address. */
export async function acceptInvitation(user: SessionUser, token: string, now = new Date()): Promise<TeamResult<{ workspaceId: string }>> {
  return adminDb().transaction().execute(async (trx): Promise<TeamResult<{ workspaceId: string }>> => {
    const found = await findByToken(trx, token)
    if (!found) return fail('invitation_invalid')
    await lockSeats(trx, found.workspace_id)
    // Read again under the lock: a concurrent accept of the same link has finished by now.
    const row = await trx.selectFrom('workspace_invitations').selectAll().where('id', '=', found.id).forUpdate().executeTakeFirstOrThrow()
    const state = invitationState({ expiresAt: row.expires_at, acceptedAt: row.accepted_at, revokedAt: row.revoked_at }, now)
    if (state === 'expired') return fail('invitation_expired')
    if (state !== 'pending') return fail('invitation_invalid')
    if (!sameEmail(row.email, user.email)) return fail('wrong_account', { email: row.email })
    const joined = await trx.insertInto('workspace_members')
      .values({ workspace_id: row.workspace_id, user_id: user.id, role: row.role, monthly_credit_cap: row.monthly_credit_cap })
      .onConflict((oc) => oc.doNothing()).returning('user_id').executeTakeFirst()
    await trx.updateTable('workspace_invitations').set({ accepted_at: now, accepted_by: user.id }).where('id', '=', row.id).execute()
    if (joined) await recordTeamEvent(trx, { workspaceId: row.workspace_id, actorId: user.id, kind: 'member_joined', subject: user.email, data: { role: row.role } })
    return { ok: true, workspaceId: row.workspace_id }
  })
}
