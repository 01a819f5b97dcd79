import type { IncomingMessage } from 'node:http'
import type { AuthContext } from './context.ts'
import { withTransaction } from './db.ts'
import { otpExpired, validationFailed } from './errors.ts'
import { readJsonBody } from './http.ts'
import { consumeRecoveryToken, recoveryTokenHash, sendRecoveryEmail } from './recovery.ts'
import { resolveRedirect } from './redirects.ts'
import type { Reply } from './reply.ts'
import { startSession } from './session-tokens.ts'
import { findUserByEmail, recordSignIn } from './users.ts'
import { requireValidEmail } from './validation.ts'

/**
 * POST /recover?redirect_to= — always 200 `{}`, whether or not the email has an account,
 * so the endpoint cannot be used to find out who is registered.
 */
export async function recover(ctx: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const body = await readJsonBody(req)
  const email = requireValidEmail(body.email, 'Password recovery requires an email')
  const redirectTo = resolveRedirect(url.searchParams.get('redirect_to'), {
    siteUrl: ctx.siteUrl,
    allowedOrigins: ctx.allowedRedirectOrigins,
  })
  const pkce = typeof body.code_challenge === 'string' && body.code_challenge.length > 0
  await withTransaction(ctx.pool, async (db) => {
    const user = await findUserByEmail(db, email)
    if (user) await sendRecoveryEmail(db, { user, redirectTo, pkce })
  })
  return { status: 200, body: {} }
}

/**
 * POST /verify — a recovery link's token_hash (or the 6-digit code with the email) signs
 * the user in once. Unknown, used and expired tokens all get the same 403 otp_expired.
 */
export async function verify(ctx: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req)
  if (typeof body.type !== 'string' || !body.type) throw validationFailed('Verify requires a verification type')
  if (body.type !== 'recovery') {
    throw validationFailed(`Verification type "${body.type}" is not supported by the local auth server`)
  }
  const tokenHashes = candidateTokenHashes(body)
  const session = await withTransaction(ctx.pool, async (db) => {
    const userId = await consumeRecoveryToken(db, tokenHashes)
    if (!userId) return undefined
    return startSession(ctx, db, await recordSignIn(db, userId), 'otp')
  })
  if (!session) throw otpExpired()
  return { status: 200, body: session }
}

/** The stored hashes that would match what the client sent. */
function candidateTokenHashes(body: Record<string, unknown>): string[] {
  if (typeof body.token_hash === 'string' && body.token_hash) return [body.token_hash]
  if (typeof body.token === 'string' && body.token) {
    const email = requireValidEmail(body.email, 'Verify with a code requires an email')
    // The code does not say which flow requested it, so both forms of the hash are tried.
    return [recoveryTokenHash(email, body.token, false), recoveryTokenHash(email, body.token, true)]
  }
  throw validationFailed('Verify requires either a token or a token hash')
}
