/**
 * An expected failure, answered as GoTrue does with API version 2024-01-01:
 * `{ code, message }` plus the legacy `error_code` / `msg` fields older clients read.
 * Anything that is not an AuthError becomes a 500, so every expected failure must be one
 * (supabase-js retries 5xx answers as if the server were down).
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level fields, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AuthError'
  }

  toJSON() {
    return { code: this.code, error_code: this.code, message: this.message, msg: this.message, ...this.extra }
  }
}

export const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials')

export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message)

export const otpExpired = () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired')

export const rateLimited = (retryAfterSeconds: number) =>
  new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, { 'Retry-After': String(retryAfterSeconds) })

/** The database behind this server cannot answer: say so (503) rather than "invalid credentials". */
export const serviceUnavailable = () => new AuthError(503, 'service_unavailable', 'The authentication service is temporarily unavailable', {}, { 'Retry-After': '5' })
