import type { IncomingMessage } from 'node:http'
import { authenticate } from './authenticate.ts'
import type { AuthContext } from './context.ts'
import { isUniqueViolation, withTransaction } from './db.ts'
import { AuthError, invalidCredentials, validationFailed } from './errors.ts'
import { answerExistingAddress } from './existing-address.ts'
import { clientAddress, readJsonBody } from './http.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import type { Reply } from './reply.ts'
import { sessionJson, startSession } from './session-tokens.ts'
import { createRefreshToken, deleteSessions, findActiveChildToken, lockRefreshToken, markSessionRefreshed, revokeRefreshToken } from './sessions.ts'
import {
  findUserByEmail,
  findUserById,
  insertUser,
  mergeUserMetadata,
  recordSignIn,
  toUserJson,
  updateEmail,
  updatePasswordHash,
} from './users.ts'
import { normaliseEmail, optionalObject, requireStrongPassword, requireValidEmail } from './validation.ts'

/**
 * POST /signup — sign-ups are auto-confirmed, so the answer is a session (with the user). An
 * address that already has an account gets hosted Supabase's enumeration-protected answer instead.
 */
export async function signUp(ctx: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req)
  if (body.phone !== undefined && body.email === undefined) {
    throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled')
  }
  const email = requireValidEmail(body.email, 'To signup, please provide your email')
  if (typeof body.password !== 'string' || !body.password) throw validationFailed('Signup requires a valid password')
  requireStrongPassword(body.password)
  const metadata = optionalObject(body.data, 'data') ?? {}

  const attempt = { email, password: body.password, metadata }
  const existing = await findUserByEmail(ctx.pool, email)
  if (existing) return answerExistingAddress(ctx, existing, attempt)
  const passwordHash = await hashPassword(body.password)
  try {
    const session = await withTransaction(ctx.pool, async (db) => {
      const user = await insertUser(db, { email, passwordHash, metadata })
      return startSession(ctx, db, user, 'password')
    })
    return { status: 200, body: session }
  } catch (error) {
    // Two sign-ups of one address at once: the unique index decides, the loser gets the same answer.
    const winner = isUniqueViolation(error) ? await findUserByEmail(ctx.pool, email) : undefined
    if (winner) return answerExistingAddress(ctx, winner, attempt)
    throw error
  }
}

/** POST /token?grant_type=password|refresh_token */
export async function token(ctx: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const grantType = url.searchParams.get('grant_type')
  const body = await readJsonBody(req)
  if (grantType === 'password') return passwordGrant(ctx, body, clientAddress(req))
  if (grantType === 'refresh_token') return refreshTokenGrant(ctx, body)
  throw validationFailed('unsupported_grant_type')
}

/**
 * The grant's attempts were already counted before any hashing (the router consumes RATE_LIMIT_TOKEN_IP
 * per client first); the hash itself waits in the client's fair share of the threads (passwords.ts).
 */
async function passwordGrant(ctx: AuthContext, body: Record<string, unknown>, client: string): Promise<Reply> {
  const email = normaliseEmail(body.email)
  if (!email) throw validationFailed('missing email or phone')
  const password = typeof body.password === 'string' ? body.password : ''
  const user = await findUserByEmail(ctx.pool, email)
  // Same answer for an unknown email and a wrong password: no account enumeration.
  if (!(await verifyPassword(password, user?.encrypted_password, client)) || !user) throw invalidCredentials()
  if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed')
  const session = await withTransaction(ctx.pool, async (db) =>
    startSession(ctx, db, await recordSignIn(db, user.id), 'password'),
  )
  return { status: 200, body: session }
}

/**
 * GoTrue's default reuse interval: a token rotated a moment ago may be presented again (two
 * browser requests refreshing the same cookie at once) and yields its active replacement.
 */
const REFRESH_TOKEN_REUSE_INTERVAL_MS = 10_000

/**
 * Rotation: each refresh token works once and is replaced by a child. Presenting a used
 * one outside the reuse interval means it leaked; like GoTrue we then end the whole
 * session family, so whoever holds the newer tokens is signed out too.
 */
async function refreshTokenGrant(ctx: AuthContext, body: Record<string, unknown>): Promise<Reply> {
  const presented = body.refresh_token
  if (typeof presented !== 'string' || !presented) throw validationFailed('refresh_token required')
  const outcome = await withTransaction(ctx.pool, async (db) => {
    const current = await lockRefreshToken(db, presented)
    if (!current) return { error: 'not_found' } as const
    if (current.revoked) {
      const child = Date.now() - current.updated_at.getTime() < REFRESH_TOKEN_REUSE_INTERVAL_MS ? await findActiveChildToken(db, current.token) : undefined
      const user = child && current.session_created_at && current.authentication_method ? await findUserById(db, current.user_id) : undefined
      if (child && user) {
        const session = { id: current.session_id, createdAt: current.session_created_at!, method: current.authentication_method! }
        return { session: await sessionJson(ctx, user, session, child) }
      }
      await deleteSessions(db, current.user_id, { only: current.session_id })
      return { error: 'reused' } as const
    }
    // Sign-out deletes sessions and, by cascade, their refresh tokens, so a signed-out token is
    // simply not found (as on hosted); this only catches a session vanishing mid-request.
    if (!current.session_created_at || !current.authentication_method) return { error: 'no_session' } as const
    const user = await findUserById(db, current.user_id)
    if (!user) return { error: 'not_found' } as const
    await revokeRefreshToken(db, current.token)
    await markSessionRefreshed(db, current.session_id)
    const next = await createRefreshToken(db, { userId: user.id, sessionId: current.session_id, parent: current.token })
    const session = { id: current.session_id, createdAt: current.session_created_at, method: current.authentication_method }
    return { session: await sessionJson(ctx, user, session, next) }
  })
  // Thrown after the transaction committed, so the family revocation above is kept.
  if ('error' in outcome) {
    if (outcome.error === 'reused') {
      throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
    }
    if (outcome.error === 'no_session') throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: Session Not Found')
    throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
  }
  return { status: 200, body: outcome.session }
}

/** GET /user */
export async function getUser(ctx: AuthContext, req: IncomingMessage): Promise<Reply> {
  const { user } = await authenticate(ctx, req)
  return { status: 200, body: toUserJson(user) }
}

/**
 * PUT /user — `data` merges into user_metadata (null deletes a key); a new password ends
 * every other session of the user (this one stays, as on hosted GoTrue); with auto-confirm
 * an email change applies at once.
 */
export async function updateUser(ctx: AuthContext, req: IncomingMessage): Promise<Reply> {
  const { user, session } = await authenticate(ctx, req)
  const body = await readJsonBody(req)
  const metadata = optionalObject(body.data, 'data')

  let email: string | undefined
  if (body.email !== undefined && body.email !== null && body.email !== '') {
    email = requireValidEmail(body.email, 'An email address is required')
    if (email === user.email?.toLowerCase()) email = undefined
    else if (await findUserByEmail(ctx.pool, email)) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
    }
  }
  if (typeof body.phone === 'string' && body.phone) {
    throw new AuthError(400, 'phone_provider_disabled', 'Phone provider is disabled')
  }

  let passwordHash: string | undefined
  if (body.password !== undefined && body.password !== null) {
    if (typeof body.password !== 'string') throw validationFailed('password must be a string')
    requireStrongPassword(body.password)
    if (await verifyPassword(body.password, user.encrypted_password)) {
      throw new AuthError(422, 'same_password', 'New password should be different from the old password.')
    }
    passwordHash = await hashPassword(body.password)
  }

  try {
    const updated = await withTransaction(ctx.pool, async (db) => {
      if (metadata) await mergeUserMetadata(db, user.id, metadata)
      if (email) await updateEmail(db, user.id, email)
      if (passwordHash) {
        await updatePasswordHash(db, user.id, passwordHash)
        await deleteSessions(db, user.id, { except: session.id })
      }
      return (await findUserById(db, user.id))!
    })
    return { status: 200, body: toUserJson(updated) }
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
    }
    throw error
  }
}

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const

/** POST /logout?scope=global|local|others — ends sessions (refresh tokens go with them). */
export async function logout(ctx: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const scope = url.searchParams.get('scope') ?? 'global'
  if (!LOGOUT_SCOPES.includes(scope as (typeof LOGOUT_SCOPES)[number])) {
    throw validationFailed(`Unsupported logout scope "${scope}"`)
  }
  const { user, session } = await authenticate(ctx, req)
  if (scope === 'global') await deleteSessions(ctx.pool, user.id, 'all')
  else if (scope === 'local') await deleteSessions(ctx.pool, user.id, { only: session.id })
  else await deleteSessions(ctx.pool, user.id, { except: session.id })
  return { status: 204 }
}
