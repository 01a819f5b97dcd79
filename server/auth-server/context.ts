import type pg from 'pg'
import type { SigningKeys } from './keys.ts'
import type { RateLimiter } from '#app/.server/rate-limiter.ts'
import type { Mailer } from '#app/.server/email/mailer.ts'

/** Everything a request handler needs; built once in startAuthServer. */
export interface AuthContext {
  pool: pg.Pool
  keys: SigningKeys
  /** `<url>/auth/v1`, the `iss` of access tokens. */
  issuer: string
  siteUrl: string
  allowedRedirectOrigins: string[]
  accessTokenTtlSeconds: number
  mailer: Mailer
  rateLimiter: RateLimiter
}
