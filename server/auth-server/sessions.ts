import crypto from 'node:crypto'
import type { Queryable } from './db.ts'
import type { AuthenticationMethod } from './tokens.ts'

export interface SessionRow {
  id: string
  user_id: string
  created_at: Date
  authentication_method: AuthenticationMethod
}

export async function createSession(db: Queryable, userId: string, method: AuthenticationMethod) {
  const { rows } = await db.query<SessionRow>(
    `insert into auth.sessions (user_id, authentication_method) values ($1, $2)
     returning id, user_id, created_at, authentication_method`,
    [userId, method],
  )
  return rows[0]!
}

export async function findSession(db: Queryable, sessionId: string, userId: string) {
  const { rows } = await db.query<SessionRow>(
    'select id, user_id, created_at, authentication_method from auth.sessions where id = $1 and user_id = $2',
    [sessionId, userId],
  )
  return rows[0]
}

export async function markSessionRefreshed(db: Queryable, sessionId: string) {
  await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [sessionId])
}

/** Ends sessions; their refresh tokens go with them (on delete cascade). */
export async function deleteSessions(
  db: Queryable,
  userId: string,
  which: { only: string } | { except: string } | 'all',
) {
  if (which === 'all') await db.query('delete from auth.sessions where user_id = $1', [userId])
  else if ('only' in which) await db.query('delete from auth.sessions where user_id = $1 and id = $2', [userId, which.only])
  else await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, which.except])
}

/** Opaque and unguessable; GoTrue's are 12 random bytes, these are a little longer. */
function newRefreshTokenValue() {
  return crypto.randomBytes(24).toString('base64url')
}

export async function createRefreshToken(
  db: Queryable,
  { userId, sessionId, parent }: { userId: string; sessionId: string; parent?: string },
) {
  const token = newRefreshTokenValue()
  await db.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
    token,
    userId,
    sessionId,
    parent ?? null,
  ])
  return token
}

export interface RefreshTokenRow {
  token: string
  user_id: string
  session_id: string
  revoked: boolean
  /** When the token was last changed — for a revoked one, when it was rotated. */
  updated_at: Date
  /** Null when the session row is gone. */
  session_created_at: Date | null
  authentication_method: AuthenticationMethod | null
}

/**
 * Finds a refresh token and locks it, so two concurrent refreshes with the same token
 * cannot both succeed (the loser sees it revoked).
 */
export async function lockRefreshToken(db: Queryable, token: string) {
  const { rows } = await db.query<RefreshTokenRow>(
    `select rt.token, rt.user_id, rt.session_id, rt.revoked, rt.updated_at,
            s.created_at as session_created_at, s.authentication_method
       from auth.refresh_tokens rt
       left join auth.sessions s on s.id = rt.session_id
      where rt.token = $1
      for update of rt`,
    [token],
  )
  return rows[0]
}

export async function revokeRefreshToken(db: Queryable, token: string) {
  await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [token])
}

/** The still-active token that replaced `parent`, if any. */
export async function findActiveChildToken(db: Queryable, parent: string) {
  const { rows } = await db.query<{ token: string }>(
    'select token from auth.refresh_tokens where parent = $1 and revoked = false order by id desc limit 1',
    [parent],
  )
  return rows[0]?.token
}
