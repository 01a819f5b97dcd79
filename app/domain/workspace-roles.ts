import type { PlanId } from './plans.ts'

// Roles of a workspace member (issue 29 item 2) and what each may do. One table, read by the commands (form, API,
// scheduler alike) and by the UI, which only hides what the commands would refuse anyway.

export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'read_only'] as const
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number]

/** Roles an admin may give (ownership only moves by a transfer). */
export const ASSIGNABLE_ROLES = ['admin', 'member', 'read_only'] as const satisfies readonly WorkspaceRole[]
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number]

const RANK: Record<WorkspaceRole, number> = { read_only: 0, member: 1, admin: 2, owner: 3 }

/** Each action and the least role allowed to do it. */
export const PERMISSIONS = {
  /** Exports: create, resume, add enrichments, delete; saved searches: create, edit, run, delete. */
  export: 'member',
  /** Add opt-outs (one or a file): protective, so every member may. */
  dncAdd: 'member',
  /** Remove an opt-out: it lets the team contact someone again. */
  dncRemove: 'admin',
  /** Create and revoke one's own API keys. */
  ownKeys: 'member',
  /** Revoke any key of the workspace; webhook endpoints and integrations. */
  integrations: 'admin',
  /** Invite, remove, change roles and caps; read the activity log. */
  members: 'admin',
  /** Subscription, seats, ownership transfer, renaming the team. */
  billing: 'owner',
} as const satisfies Record<string, WorkspaceRole>
export type Permission = keyof typeof PERMISSIONS

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value)
}

export function can(role: WorkspaceRole, permission: Permission): boolean {
  return RANK[role] >= RANK[PERMISSIONS[permission]]
}

/** Whether `actor` may change or remove a member holding `target` (never the owner; admins not other admins' peers above them). */
export function canManageMember(actor: WorkspaceRole, target: WorkspaceRole): boolean {
  return can(actor, 'members') && target !== 'owner' && RANK[actor] >= RANK[target]
}

/** Seats a plan includes (issue 29 item 3): people in the workspace, the owner included. */
export const SEAT_LIMITS: Record<PlanId, number> = { free_trial: 1, basic: 1, professional: 3, premium: 10 }
