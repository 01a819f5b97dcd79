import type { IncomingMessage } from 'node:http'
import type { AuthContext } from './context.ts'
import { withTransaction } from './db.ts'
import { AuthError, otpExpired, validationFailed } from './errors.ts'
import { readJsonBody } from './http.ts'
import { consumeRecoveryToken, prepareRecoveryEmail } from './recovery.ts'
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
    if (!user) return
    // The app names the interface language in its redirect (`lang`), so the email speaks the language the person asked in.
    const langHint = new URL(redirectTo).searchParams.get('lang')
    const mail = await prepareRecoveryEmail(db, { user, redirectTo, pkce, langHint })
    try {
      await ctx.mailer.send(db, mail)
    } catch (error) {
      // GoTrue's answer; the transaction rolls back, so no token exists for a mail never sent.
      console.error('[auth-server] sending the recovery email failed:', (error as Error).message)
      throw new AuthError(500, 'unexpected_failure', 'Error sending recovery email')
    }
  })
  return { status: 200, body: {} }
}

/**
 * POST /verify — a recovery link's token_hash signs the user in once. Unknown, used and expired
 * tokens all get the same 403 otp_expired. The 6-digit code form is not offered: its million
 * candidates are too few to hand out (the links carry 256 random bits instead).
 */
export async function verify(ctx: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req)
  if (typeof body.type !== 'string' || !body.type) throw validationFailed('Verify requires a verification type')
  if (body.type !== 'recovery') {
    throw validationFailed(`Verification type "${body.type}" is not supported by the local auth server`)
  }
  if (typeof body.token_hash !== 'string' || !body.token_hash) {
    throw validationFailed('Verify requires a token hash (codes are not supported by the local auth server)')
  }
  const tokenHash = body.token_hash
  const session = await withTransaction(ctx.pool, async (db) => {
    const userId = await consumeRecoveryToken(db, tokenHash)
    if (!userId) return undefined
    return startSession(ctx, db, await recordSignIn(db, userId), 'otp')
  })
  if (!session) throw otpExpired()
  return { status: 200, body: session }
}
