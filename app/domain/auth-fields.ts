// The rules of the sign-in, sign-up, forgot-password and profile fields, without zod. The login page's forms check
// them in the browser with these (zod is ~23 KB brotli: a sixth of what the signed-out page used to load); the server
// parses the same posts with the zod schemas of auth.ts, built from the same limits and pattern.
// tests/unit/auth-fields.test.ts holds both to the same answers.

export const MIN_PASSWORD_LENGTH = 6
export const MAX_PASSWORD_LENGTH = 200
export const MAX_EMAIL_LENGTH = 254
export const PROFILE_FIELD_MAX = 120
/** zod's own email pattern (zod/v4/core `regexes.email`), written out so that the browser need not load zod. */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/

/** The message keys of a field's value (a form value as posted: a string, a file, or absent). */
export type FieldCheck = (value: unknown) => string[]

/** An empty text field is an absent one (conform's parseWithZod reads the form the same way). */
const posted = (value: unknown) => (value === '' ? undefined : value)

const checkEmail: FieldCheck = (value) => {
  const email = posted(value)
  if (typeof email !== 'string' || !email.trim()) return ['auth.errors.emailRequired']
  const trimmed = email.trim()
  return trimmed.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(trimmed) ? ['auth.errors.emailInvalid'] : []
}

const checkPassword: FieldCheck = (value) => {
  const password = posted(value)
  if (typeof password !== 'string') return ['auth.errors.passwordRequired']
  if (password.length < MIN_PASSWORD_LENGTH) return ['auth.errors.passwordMin']
  return password.length > MAX_PASSWORD_LENGTH ? ['auth.errors.passwordRequired'] : []
}

/** An optional profile text: anything up to PROFILE_FIELD_MAX characters once trimmed. */
const checkProfileText: FieldCheck = (value) => (typeof value === 'string' && value.trim().length > PROFILE_FIELD_MAX ? ['settings.tooLong'] : [])

export const SIGN_IN_FIELDS = { email: checkEmail, password: checkPassword } satisfies Record<string, FieldCheck>
export const FORGOT_PASSWORD_FIELDS = { email: checkEmail } satisfies Record<string, FieldCheck>
export const PROFILE_FIELDS = { firstName: checkProfileText, lastName: checkProfileText, companyName: checkProfileText, phone: checkProfileText } satisfies Record<
  string,
  FieldCheck
>

/** Each field's message keys, only for the fields that have some (no key at all: the form is valid). */
export function fieldErrors(checks: Record<string, FieldCheck>, values: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  for (const [name, check] of Object.entries(checks)) {
    const messages = check(values[name])
    if (messages.length) errors[name] = messages
  }
  return errors
}
