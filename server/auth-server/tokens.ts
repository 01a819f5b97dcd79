import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { AuthError } from './errors.ts'
import type { SigningKeys } from './keys.ts'
import type { UserRow } from './users.ts'
import { isUuid } from '#app/domain/ids.ts'

/** How the session was established, as reported in the `amr` claim. */
export type AuthenticationMethod = 'password' | 'otp'

export interface AccessTokenClaims extends JWTPayload {
  sub: string
  session_id: string
  email?: string
  role?: string
}

/** API keys are valid for ten years, like the keys of a hosted project. */
const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600

function signer(keys: SigningKeys, payload: JWTPayload) {
  // `kid` lets supabase-js pick the key from the JWKS and verify getClaims() locally.
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: keys.kid, typ: 'JWT' }).sign(keys.privateKey)
}

/** The access token GoTrue issues, with the claims supabase-js and RLS (auth.uid(), auth.jwt()) read. */
export async function signAccessToken(
  keys: SigningKeys,
  {
    issuer,
    ttlSeconds,
    user,
    session,
  }: {
    issuer: string
    ttlSeconds: number
    user: UserRow
    session: { id: string; createdAt: Date; method: AuthenticationMethod }
  },
) {
  const iat = Math.floor(Date.now() / 1000)
  const exp = iat + ttlSeconds
  const token = await signer(keys, {
    iss: issuer,
    sub: user.id,
    aud: user.aud || 'authenticated',
    exp,
    iat,
    email: user.email ?? '',
    phone: '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    // The time the session was authenticated, not the time of this refresh.
    amr: [{ method: session.method, timestamp: Math.floor(session.createdAt.getTime() / 1000) }],
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  })
  return { token, iat, exp }
}

/** The anon / service_role API keys: long-lived JWTs signed with the same key, as on a hosted project. */
export function signApiKey(keys: SigningKeys, role: 'anon' | 'service_role') {
  const iat = keys.createdAt
  return signer(keys, { iss: 'supabase', ref: 'local', role, iat, exp: iat + API_KEY_LIFETIME_SECONDS })
}

/** Verifies signature and expiry of an API key and returns its role, or undefined when it is not ours. */
export async function apiKeyRole(keys: SigningKeys, apiKey: string) {
  try {
    const { payload } = await jwtVerify(apiKey, keys.publicKey, { algorithms: ['ES256'] })
    return payload.role === 'anon' || payload.role === 'service_role' ? payload.role : undefined
  } catch {
    return undefined
  }
}

/**
 * Verifies an access token's signature and expiry. Failures are 403 bad_jwt, as GoTrue
 * answers; an API key (no `sub`) is not a user's token either.
 */
export async function verifyAccessToken(keys: SigningKeys, token: string): Promise<AccessTokenClaims> {
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, keys.publicKey, { algorithms: ['ES256'], requiredClaims: ['exp'] }))
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token is expired'
        : error instanceof joseErrors.JWSSignatureVerificationFailed
          ? 'signature is invalid'
          : 'unable to parse or verify signature'
    throw new AuthError(403, 'bad_jwt', `invalid JWT: ${reason}`)
  }
  // Both end up in uuid columns; checking the format keeps a malformed claim a 403, not a 500.
  if (!isUuid(payload.sub)) throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim')
  if (!isUuid(payload.session_id)) throw new AuthError(403, 'bad_jwt', 'invalid claim: missing session_id claim')
  return payload as AccessTokenClaims
}
