import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import type { $ZodType } from 'zod/v4/core'
import { ForgotPasswordSchema, ProfileSchema, SignInSchema, SignUpSchema } from '#app/domain/auth.ts'
import { FORGOT_PASSWORD_FIELDS, PROFILE_FIELDS, SIGN_IN_FIELDS, type FieldCheck } from '#app/domain/auth-fields.ts'
import { validateFields } from '#app/utils/field-checks.ts'

/*
 * The login page's forms are checked in the browser without zod (app/domain/auth-fields.ts) and parsed on the server
 * with zod (app/domain/auth.ts): for every post below, both must find the same fields wrong with the same messages,
 * or a visitor with JavaScript would see other errors than one without.
 */

const errorsOf = (submission: { status?: string } & object) => ('error' in submission ? submission.error : undefined) ?? {}

const form = (entries: Record<string, string>) => {
  const formData = new FormData()
  for (const [name, value] of Object.entries(entries)) formData.append(name, value)
  return formData
}

function expectSameAnswers(schema: $ZodType, checks: Record<string, FieldCheck>, posts: Array<Record<string, string>>) {
  for (const post of posts) {
    const server = parseWithZod(form(post), { schema })
    const browser = validateFields(checks)({ formData: form(post) })
    expect({ post, status: browser.status, error: errorsOf(browser) }).toEqual({ post, status: server.status, error: errorsOf(server) })
  }
}

const emails = ['', '   ', 'jane@example.com', '  Jane@Example.COM ', 'not-an-email', 'a@b', 'a@b.c', 'a..b@example.com', '.a@example.com', 'a.@example.com', "o'hara+tag@sub.example.org", 'a@-example.com', `${'x'.repeat(243)}@example.com`, `${'x'.repeat(242)}@example.com`, 'jane@exa mple.com']
const passwords = ['', ' ', '12345', '123456', '      ', 'x'.repeat(200), 'x'.repeat(201)]

describe('browser checks of the login forms = the server schemas', () => {
  it('sign-in and sign-up', () => {
    const posts = emails.flatMap((email) => passwords.map((password) => ({ email, password })))
    expectSameAnswers(SignInSchema, SIGN_IN_FIELDS, [...posts, { redirectTo: '/exports' }, {}])
    expectSameAnswers(SignUpSchema, SIGN_IN_FIELDS, [...posts, {}])
  })

  it('forgot password', () => {
    expectSameAnswers(ForgotPasswordSchema, FORGOT_PASSWORD_FIELDS, [...emails.map((email) => ({ email })), {}])
  })

  it('profile step', () => {
    const texts = ['', ' Ada ', 'x'.repeat(120), `  ${'x'.repeat(120)}  `, 'x'.repeat(121)]
    expectSameAnswers(ProfileSchema, PROFILE_FIELDS, [...texts.map((text) => ({ firstName: text, lastName: text, companyName: text, phone: text })), { phone: 'x'.repeat(121) }, {}])
  })

  it('finds the errors a visitor makes', () => {
    const submission = validateFields(SIGN_IN_FIELDS)({ formData: form({ email: 'not-an-email', password: '12345' }) })
    expect(errorsOf(submission)).toEqual({ email: ['auth.errors.emailInvalid'], password: ['auth.errors.passwordMin'] })
  })
})
