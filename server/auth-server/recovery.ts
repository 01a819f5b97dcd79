import crypto from 'node:crypto'
import type { Queryable } from './db.ts'
import { writeOutboxEmail } from './outbox.ts'
import { withQuery } from './redirects.ts'
import type { UserRow } from './users.ts'

/** How long a reset link stays valid (GoTrue's default OTP expiry). */
export const RECOVERY_TOKEN_TTL_SECONDS = 3600

/**
 * GoTrue's token hash: hex(sha224(email + otp)). In the PKCE flow (the client sent a
 * code_challenge, as @supabase/ssr always does) it is stored and mailed with a "pkce_" prefix.
 */
export function recoveryTokenHash(email: string, otp: string, pkce: boolean) {
  const hash = crypto.createHash('sha224').update(email + otp).digest('hex')
  return pkce ? `pkce_${hash}` : hash
}

/**
 * Stores a fresh recovery token for the user (replacing any earlier one, so only the
 * latest link works) and "sends" the reset email to the outbox.
 */
export async function sendRecoveryEmail(
  db: Queryable,
  { user, redirectTo, pkce }: { user: UserRow; redirectTo: string; pkce: boolean },
) {
  const email = user.email ?? ''
  const otp = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0')
  const tokenHash = recoveryTokenHash(email, otp, pkce)
  await db.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1', [
    user.id,
    tokenHash,
  ])
  // The link the Supabase SSR guide puts in the template: the app's own page verifies the
  // token server-side with verifyOtp({ type: 'recovery', token_hash }).
  const link = withQuery(redirectTo, { token_hash: tokenHash, type: 'recovery' })
  await writeOutboxEmail(db, {
    to: email,
    subject: 'Reset Your Password',
    bodyText: [
      'Reset Password',
      '',
      'Follow this link to reset the password for your user:',
      link,
      '',
      `Alternatively, enter the code: ${otp}`,
    ].join('\n'),
    link,
  })
}

/**
 * Consumes a recovery token: returns the user id when one of `tokenHashes` is a stored,
 * unexpired token and clears it so the link works only once. Undefined otherwise.
 */
export async function consumeRecoveryToken(db: Queryable, tokenHashes: string[]) {
  const { rows } = await db.query<{ id: string; expired: boolean }>(
    `select id, recovery_sent_at is null or recovery_sent_at < now() - make_interval(secs => $2) as expired
       from auth.users
      where recovery_token = any($1::text[])
      for update`,
    [tokenHashes, RECOVERY_TOKEN_TTL_SECONDS],
  )
  const match = rows[0]
  if (!match || match.expired) return undefined
  await db.query(
    `update auth.users
        set recovery_token = null,
            email_confirmed_at = coalesce(email_confirmed_at, now()),
            updated_at = now()
      where id = $1`,
    [match.id],
  )
  return match.id
}
