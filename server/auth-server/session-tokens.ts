import type { AuthContext } from './context.ts'
import type { Queryable } from './db.ts'
import { createRefreshToken, createSession } from './sessions.ts'
import { signAccessToken, type AuthenticationMethod } from './tokens.ts'
import { toUserJson, type UserRow } from './users.ts'

/**
 * The session JSON of GoTrue's /token, /signup and /verify answers. supabase-js only
 * treats an answer as a session when access_token, refresh_token and expires_in are present.
 */
export async function sessionJson(
  ctx: AuthContext,
  user: UserRow,
  session: { id: string; createdAt: Date; method: AuthenticationMethod },
  refreshToken: string,
) {
  const { token, exp } = await signAccessToken(ctx.keys, {
    issuer: ctx.issuer,
    ttlSeconds: ctx.accessTokenTtlSeconds,
    user,
    session,
  })
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.accessTokenTtlSeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: toUserJson(user),
  }
}

/** Starts a new session for a user who just proved who they are (password, recovery link). */
export async function startSession(ctx: AuthContext, db: Queryable, user: UserRow, method: AuthenticationMethod) {
  const session = await createSession(db, user.id, method)
  const refreshToken = await createRefreshToken(db, { userId: user.id, sessionId: session.id })
  return sessionJson(ctx, user, { id: session.id, createdAt: session.created_at, method }, refreshToken)
}
