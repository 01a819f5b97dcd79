import type { IncomingMessage } from 'node:http'
import type { AuthContext } from './context.ts'
import { AuthError } from './errors.ts'
import { bearerToken } from './http.ts'
import { findSession } from './sessions.ts'
import { verifyAccessToken } from './tokens.ts'
import { findUserById } from './users.ts'

/**
 * Resolves the caller of /user and /logout from the bearer access token: signature and
 * expiry first, then the session, because a signed-out session must stop working before
 * its access token expires.
 */
export async function authenticate(ctx: AuthContext, req: IncomingMessage) {
  const token = bearerToken(req)
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token')
  const claims = await verifyAccessToken(ctx.keys, token)
  const session = await findSession(ctx.pool, claims.session_id, claims.sub)
  // supabase-js turns session_not_found into AuthSessionMissingError and clears its session.
  if (!session) throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  const user = await findUserById(ctx.pool, claims.sub)
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  return { claims, session, user }
}
