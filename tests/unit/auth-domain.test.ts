import { describe, expect, it } from 'vitest'
import { authErrorKey, NewPasswordSchema, profileToAuthMetadata, ProfileSchema, SignInSchema, SignUpSchema } from '#app/domain/auth.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'

const issues = (result: { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`) ?? []

describe('sign-in and sign-up validation (SPEC §5)', () => {
  it('requires an email and a 6+ character password', () => {
    expect(issues(SignInSchema.safeParse({}))).toEqual(['email:auth.errors.emailRequired', 'password:auth.errors.passwordRequired'])
    expect(issues(SignUpSchema.safeParse({ email: 'not-an-email', password: '12345' }))).toEqual([
      'email:auth.errors.emailInvalid',
      'password:auth.errors.passwordMin',
    ])
  })
  it('normalises the email', () => {
    expect(SignUpSchema.parse({ email: '  Jane@Example.COM ', password: '123456' }).email).toBe('jane@example.com')
  })
})

describe('new password validation (SPEC §5)', () => {
  it('needs 6 characters and a matching confirmation', () => {
    expect(issues(NewPasswordSchema.safeParse({ password: '123', confirmPassword: '123' }))).toEqual(['password:resetPassword.errors.min'])
    expect(issues(NewPasswordSchema.safeParse({ password: '123456', confirmPassword: '1234567' }))).toEqual([
      'confirmPassword:resetPassword.errors.mismatch',
    ])
    expect(issues(NewPasswordSchema.safeParse({}))).toContain('password:resetPassword.errors.required')
    expect(NewPasswordSchema.safeParse({ password: 'secret1', confirmPassword: 'secret1' }).success).toBe(true)
  })
})

describe('profile metadata (SPEC §3)', () => {
  it('sets the combined name only when both names are present', () => {
    const both = ProfileSchema.parse({ firstName: ' Ada ', lastName: 'Lovelace', companyName: 'Analytical', phone: '0102030405' })
    expect(profileToAuthMetadata(both)).toEqual({ first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical', phone: '0102030405', name: 'Ada Lovelace' })
    expect(profileToAuthMetadata(ProfileSchema.parse({ firstName: 'Ada' }))).not.toHaveProperty('name')
    expect(profileToAuthMetadata(ProfileSchema.parse({ lastName: 'Lovelace' }))).not.toHaveProperty('name')
  })
  it('refuses overlong fields', () => {
    expect(ProfileSchema.safeParse({ firstName: 'x'.repeat(121) }).success).toBe(false)
  })
})

describe('auth error mapping', () => {
  it('maps known codes and falls back to the generic error', () => {
    expect(authErrorKey('invalid_credentials')).toBe('auth.errors.invalidCredentials')
    expect(authErrorKey('user_already_exists')).toBe('auth.errors.userExists')
    expect(authErrorKey('something_new')).toBe('common.error')
    expect(authErrorKey(undefined)).toBe('common.error')
  })
})

describe('safeRedirectPath (no open redirects)', () => {
  it.each([
    ['/exports?status=failed', '/exports?status=failed'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
    [null, '/'],
    ['/ok\nSet-Cookie:x', '/'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected)
  })
})
