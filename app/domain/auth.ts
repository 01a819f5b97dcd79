import { z } from 'zod'
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PROFILE_FIELD_MAX } from './auth-fields.ts'

// The schemas the actions parse posts with (the settings page checks its profile form with one in the browser too;
// the login page's forms use auth-fields.ts, the same rules without zod). Messages are i18n keys.
const email = z
  .string({ error: 'auth.errors.emailRequired' })
  .trim()
  .min(1, { error: 'auth.errors.emailRequired' })
  .max(MAX_EMAIL_LENGTH, { error: 'auth.errors.emailInvalid' })
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: 'auth.errors.emailInvalid' }))
  .transform((value) => value.toLowerCase())

const password = z
  .string({ error: 'auth.errors.passwordRequired' })
  .min(1, { error: 'auth.errors.passwordRequired' })
  .min(MIN_PASSWORD_LENGTH, { error: 'auth.errors.passwordMin' })
  .max(MAX_PASSWORD_LENGTH, { error: 'auth.errors.passwordRequired' })

export const SignInSchema = z.object({ email, password, redirectTo: z.string().optional() })
export const SignUpSchema = z.object({ email, password })
export const ForgotPasswordSchema = z.object({ email })

const optionalText = z
  .string()
  .trim()
  .max(PROFILE_FIELD_MAX, { error: 'settings.tooLong' })
  .optional()
  .transform((value) => value ?? '')

export const ProfileSchema = z.object({
  firstName: optionalText,
  lastName: optionalText,
  companyName: optionalText,
  phone: optionalText,
})
export type Profile = z.infer<typeof ProfileSchema>

export const NewPasswordSchema = z
  .object({
    password: z
      .string({ error: 'resetPassword.errors.required' })
      .min(1, { error: 'resetPassword.errors.required' })
      .min(MIN_PASSWORD_LENGTH, { error: 'resetPassword.errors.min' })
      .max(MAX_PASSWORD_LENGTH, { error: 'resetPassword.errors.min' }),
    confirmPassword: z.string({ error: 'resetPassword.errors.required' }).min(1, { error: 'resetPassword.errors.required' }),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    error: 'resetPassword.errors.mismatch',
  })

/**
 * Auth user metadata (SPEC §3): `name` is "first last" and is written only when both are
 * non-empty, so a half-filled profile never overwrites a good display name.
 */
export function profileToAuthMetadata(profile: Profile) {
  const metadata: Record<string, string> = {
    first_name: profile.firstName,
    last_name: profile.lastName,
    company: profile.companyName,
    phone: profile.phone,
  }
  if (profile.firstName && profile.lastName) metadata.name = `${profile.firstName} ${profile.lastName}`
  return metadata
}

/** Maps Supabase Auth error codes to our message keys; unknown ones fall back to the generic text. */
export function authErrorKey(code: string | undefined, status?: number): string {
  // 5xx, or no answer at all (supabase-js reports status 0): the auth service or its database is down.
  if (status !== undefined && (status === 0 || status >= 500)) return 'auth.errors.unavailable'
  switch (code) {
    case 'invalid_credentials':
      return 'auth.errors.invalidCredentials'
    case 'user_already_exists':
    case 'email_exists':
      return 'auth.errors.userExists'
    case 'weak_password':
      return 'auth.errors.weakPassword'
    case 'over_request_rate_limit':
    case 'over_email_send_rate_limit':
      return 'auth.errors.rateLimited'
    case 'validation_failed':
    case 'email_address_invalid':
      return 'auth.errors.emailInvalid'
    default:
      return 'common.error'
  }
}
