import { describe, expect, test } from 'vitest'
import { invitationExpiry, invitationState, InviteSchema, monthStartUtc, sameEmail, seatsLeft, TeamCommandSchema } from '#app/domain/team.ts'
import { can, canManageMember, PERMISSIONS, WORKSPACE_ROLES } from '#app/domain/workspace-roles.ts'

describe('roles', () => {
  test('each role may do what its rank allows, and nothing above', () => {
    expect(can('read_only', 'export')).toBe(false)
    expect(can('member', 'export')).toBe(true)
    expect(can('member', 'dncAdd')).toBe(true)
    expect(can('member', 'dncRemove')).toBe(false)
    expect(can('member', 'integrations')).toBe(false)
    expect(can('admin', 'members')).toBe(true)
    expect(can('admin', 'billing')).toBe(false)
    expect(can('owner', 'billing')).toBe(true)
    // The owner may do everything.
    for (const permission of Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>) expect(can('owner', permission)).toBe(true)
  })

  test('managing a member: admins and owners, never the owner, never someone above oneself', () => {
    expect(canManageMember('admin', 'member')).toBe(true)
    expect(canManageMember('admin', 'admin')).toBe(true)
    expect(canManageMember('admin', 'owner')).toBe(false)
    expect(canManageMember('owner', 'admin')).toBe(true)
    expect(canManageMember('member', 'read_only')).toBe(false)
    expect(WORKSPACE_ROLES).toHaveLength(4)
  })
})

describe('invitations', () => {
  test('the form: a normalised address, an assignable role, an optional whole-number cap', () => {
    expect(InviteSchema.parse({ intent: 'invite', email: '  Marie@Example.FR ', role: 'member', monthlyCap: '500' })).toEqual({ intent: 'invite', email: 'marie@example.fr', role: 'member', monthlyCap: 500 })
    expect(InviteSchema.parse({ intent: 'invite', email: 'a@b.fr', role: 'read_only', monthlyCap: '' }).monthlyCap).toBeUndefined()
    expect(InviteSchema.safeParse({ intent: 'invite', email: 'a@b.fr', role: 'owner' }).success).toBe(false)
    expect(InviteSchema.safeParse({ intent: 'invite', email: 'a@b.fr', role: 'member', monthlyCap: '1.5' }).success).toBe(false)
    expect(InviteSchema.safeParse({ intent: 'invite', email: 'a@b.fr', role: 'member', monthlyCap: '-1' }).success).toBe(false)
    expect(InviteSchema.safeParse({ intent: 'invite', email: 'colleague@intranet', role: 'member' }).success).toBe(false)
    expect(TeamCommandSchema.safeParse({ intent: 'remove', memberId: 'not-a-uuid' }).success).toBe(false)
    expect(TeamCommandSchema.safeParse({ intent: 'drop-table' }).success).toBe(false)
  })

  test('seats count members and pending invitations; a link lives 7 days, once', () => {
    expect(seatsLeft('professional', 1, 1)).toBe(1)
    expect(seatsLeft('professional', 2, 1)).toBe(0)
    expect(seatsLeft('basic', 1, 0)).toBe(0)
    expect(seatsLeft('premium', 12, 0)).toBe(0)
    const sent = new Date('2026-12-01T10:00:00Z')
    const expiresAt = invitationExpiry(sent)
    expect(expiresAt.toISOString()).toBe('2026-12-08T10:00:00.000Z')
    expect(invitationState({ expiresAt, acceptedAt: null, revokedAt: null }, new Date('2026-12-08T09:59:59Z'))).toBe('pending')
    expect(invitationState({ expiresAt, acceptedAt: null, revokedAt: null }, expiresAt)).toBe('expired')
    expect(invitationState({ expiresAt, acceptedAt: sent, revokedAt: null }, sent)).toBe('accepted')
    expect(invitationState({ expiresAt, acceptedAt: null, revokedAt: sent }, sent)).toBe('revoked')
    expect(sameEmail(' Marie@Example.fr', 'marie@example.FR')).toBe(true)
    expect(sameEmail('marie@example.fr', 'marie@example.com')).toBe(false)
  })

  test('caps count from the first instant of the UTC month', () => {
    expect(monthStartUtc(new Date('2026-12-31T23:30:00-02:00')).toISOString()).toBe('2027-01-01T00:00:00.000Z')
    expect(monthStartUtc(new Date('2026-12-03T07:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z')
  })
})
