// Team rules without I/O (issue 29): invitation forms, seats, expiry, usage months. The commands and the team page
// both read them.
import { z } from 'zod'
import { ASSIGNABLE_ROLES, type WorkspaceRole } from './workspace-roles.ts'
import type { PlanId } from './plans.ts'
import { SEAT_LIMITS } from './workspace-roles.ts'

export const INVITATION_DAYS = 7
export const MAX_MONTHLY_CAP = 1_000_000
export const WORKSPACE_NAME_MAX = 80
export const MAX_EXTRA_SEATS = 1000

/** An admin's monthly cap field: empty = no cap; else a whole number of credits. */
const CapField = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : value.trim()) : value),
  z.coerce.number().int('team.errors.capInvalid').min(0, 'team.errors.capInvalid').max(MAX_MONTHLY_CAP, 'team.errors.capInvalid').optional(),
)

export const InviteSchema = z.object({
  intent: z.literal('invite'),
  email: z.string({ error: 'team.errors.emailRequired' }).trim().toLowerCase().min(1, 'team.errors.emailRequired').max(320, 'team.errors.emailInvalid').pipe(z.email('team.errors.emailInvalid')),
  role: z.enum(ASSIGNABLE_ROLES, { error: 'team.errors.roleInvalid' }),
  monthlyCap: CapField,
})
export type InviteInput = z.output<typeof InviteSchema>

const memberId = z.uuid('team.errors.memberMissing')
const invitationId = z.uuid('team.errors.invitationMissing')

const SeatsSchema = z.object({
  intent: z.literal('seats'),
  extraSeats: z.coerce.number({ error: 'team.errors.seatsInvalid' }).int('team.errors.seatsInvalid').min(0, 'team.errors.seatsInvalid').max(MAX_EXTRA_SEATS, 'team.errors.seatsInvalid'),
})

const RenameSchema = z.object({
  intent: z.literal('rename'),
  name: z.string({ error: 'team.errors.nameRequired' }).trim().min(1, 'team.errors.nameRequired').max(WORKSPACE_NAME_MAX, 'team.errors.nameTooLong'),
})

/** Every form of /settings/team, one schema each by intent (conform in the browser, the action on the server). */
export const TeamCommandSchema = z.discriminatedUnion('intent', [
  InviteSchema,
  RenameSchema,
  SeatsSchema,
  z.object({ intent: z.literal('resend'), invitationId }),
  z.object({ intent: z.literal('revoke'), invitationId }),
  z.object({ intent: z.literal('role'), memberId, role: z.enum(ASSIGNABLE_ROLES, { error: 'team.errors.roleInvalid' }) }),
  z.object({ intent: z.literal('cap'), memberId, monthlyCap: CapField }),
  z.object({ intent: z.literal('remove'), memberId }),
  z.object({ intent: z.literal('transfer'), memberId }),
  z.object({ intent: z.literal('leave') }),
])
export type TeamCommand = z.output<typeof TeamCommandSchema>

/** The plan's seats, plus those bought beyond them (a paid plan only: the trial is one person). */
export function seatLimit(plan: PlanId, extraSeats = 0): number {
  return SEAT_LIMITS[plan] + (plan === 'free_trial' ? 0 : extraSeats)
}

/** Seats taken: members plus pending invitations (an invitation holds its seat until accepted, revoked or expired). */
export function seatsLeft(plan: PlanId, members: number, pending: number, extraSeats = 0): number {
  return Math.max(0, seatLimit(plan, extraSeats) - members - pending)
}

export function invitationExpiry(from: Date): Date {
  return new Date(from.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000)
}

export type InvitationState = 'pending' | 'expired' | 'accepted' | 'revoked'

export function invitationState(invitation: { expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null }, now: Date): InvitationState {
  if (invitation.acceptedAt) return 'accepted'
  if (invitation.revokedAt) return 'revoked'
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending'
}

/** The first instant of `now`'s calendar month in UTC: caps and usage count from it (the ledger function does too). */
export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
}

/** Same address, whatever the case or surrounding spaces: an invitation is for one mailbox. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

export interface TeamMemberView {
  userId: string
  name: string | null
  email: string
  role: WorkspaceRole
  monthlyCap: number | null
  spentThisMonth: number
  joinedAt: string
}

export interface InvitationView {
  id: string
  email: string
  role: WorkspaceRole
  monthlyCap: number | null
  sentAt: string
  expiresAt: string
  expired: boolean
}

export interface TeamView {
  workspace: { id: string; name: string }
  plan: PlanId
  seats: { used: number; limit: number; extra: number }
  members: TeamMemberView[]
  invitations: InvitationView[]
}


/** A member as a list filter offers them. */
export interface MemberChoice {
  id: string
  label: string
}
