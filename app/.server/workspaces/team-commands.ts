// /settings/team's intents → the member and invitation commands. One place maps a command's refusal to its status.
import type { SessionUser } from '#app/.server/auth.ts'
import type { TeamCommand } from '#app/domain/team.ts'
import { inviteMember, resendInvitation, revokeInvitation, type TeamFailureCode, type TeamResult } from './invitations.ts'
import { setExtraSeats } from './seats.ts'
import { changeMemberRole, leaveWorkspace, removeMember, renameWorkspace, setMemberCap, transferOwnership } from './members.ts'

export const TEAM_FAILURE_STATUS: Record<TeamFailureCode, number> = {
  seats_full: 402,
  already_member: 409,
  already_invited: 409,
  not_found: 404,
  cannot_manage: 403,
  owner_cannot_leave: 409,
  invitation_invalid: 404,
  invitation_expired: 410,
  wrong_account: 403,
  seats_need_plan: 402,
  seats_in_use: 409,
  seats_unavailable: 503,
  seats_provider_failed: 502,
}

export function runTeamCommand(user: SessionUser, command: TeamCommand, { origin }: { origin: string }): Promise<TeamResult> {
  switch (command.intent) {
    case 'invite':
      return inviteMember(user, command, { origin })
    case 'resend':
      return resendInvitation(user, command.invitationId, { origin })
    case 'revoke':
      return revokeInvitation(user, command.invitationId)
    case 'role':
      return changeMemberRole(user, command.memberId, command.role)
    case 'cap':
      return setMemberCap(user, command.memberId, command.monthlyCap ?? null)
    case 'remove':
      return removeMember(user, command.memberId)
    case 'transfer':
      return transferOwnership(user, command.memberId)
    case 'leave':
      return leaveWorkspace(user)
    case 'rename':
      return renameWorkspace(user, command.name)
    case 'seats':
      return setExtraSeats(user, command.extraSeats)
  }
}
