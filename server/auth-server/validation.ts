import { AuthError, validationFailed } from './errors.ts'
import { isCommonPassword } from '#app/.server/password-strength.ts'
import type { JsonObject } from './http.ts'

/** GoTrue's minimum; hosted projects may raise it, the local server uses the default. */
const MIN_PASSWORD_LENGTH = 6
/** bcrypt ignores everything after 72 bytes, so GoTrue refuses longer passwords outright. */
const MAX_PASSWORD_BYTES = 72

/** Emails are compared case-insensitively everywhere, so they are stored lower case. */
export function normaliseEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const email = value.trim().toLowerCase()
  return email || undefined
}

function isValidEmail(email: string) {
  return email.length <= 255 && /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(email)
}

export function requireValidEmail(value: unknown, missingMessage: string): string {
  const email = normaliseEmail(value)
  if (!email) throw validationFailed(missingMessage)
  if (!isValidEmail(email)) throw validationFailed('Unable to validate email address: invalid format')
  return email
}

/** Throws the 422 weak_password answer supabase-js turns into an AuthWeakPasswordError. */
export function requireStrongPassword(password: string) {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  }
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new AuthError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    })
  }
  // GoTrue's answer for a leaked password (its HaveIBeenPwned check); here the common-password dictionary decides.
  if (isCommonPassword(password)) {
    throw new AuthError(422, 'weak_password', 'Password is known to be weak and easy to guess, please choose a different one.', {
      weak_password: { reasons: ['pwned'] },
    })
  }
}

/** `data` / user metadata must be a plain JSON object when present. */
export function optionalObject(value: unknown, field: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw validationFailed(`${field} must be an object`)
  return value as JsonObject
}
