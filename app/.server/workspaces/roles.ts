import { data } from 'react-router'
import type { SessionUser } from '#app/.server/auth.ts'
import { can, type Permission } from '#app/domain/workspace-roles.ts'

/** The body of a refusal by role: pages show it in their error card, the API answers 403 problem `forbidden_role`. */
export interface ForbiddenRoleBody {
  error: 'forbidden_role'
  permission: Permission
}

/**
 * Refuses (403) unless the member's role in the current workspace allows `permission`: called by each command,
 * whichever door (form, API, schedule) it came through.
 */
export function requirePermission(user: SessionUser, permission: Permission): void {
  if (!can(user.workspace.role, permission)) {
    throw data<ForbiddenRoleBody>({ error: 'forbidden_role', permission }, { status: 403 })
  }
}

export function isForbiddenRole(error: unknown): error is { data: ForbiddenRoleBody } {
  if (!error || typeof error !== 'object' || (error as { type?: unknown }).type !== 'DataWithResponseInit') return false
  const body = (error as { data?: unknown }).data
  return Boolean(body && typeof body === 'object' && (body as { error?: unknown }).error === 'forbidden_role')
}
