import crypto from 'node:crypto'
import { emailLanguage, passwordResetEmail } from '#app/.server/email/templates.ts'
import type { Queryable } from './db.ts'
import type { Mail } from '#app/.server/email/mailer.ts'
import { withQuery } from './redirects.ts'
import type { UserRow } from './users.ts'

/** How long a reset link stays valid (GoTrue's default OTP expiry). */
const RECOVERY_TOKEN_TTL_SECONDS = 3600

/**
 * The link's token_hash is 256 random bits (GoTrue derives it from the email and a 6-digit code,
 * which an attacker can enumerate offline). In the PKCE flow (the client sent a code_challenge,
 * as @supabase/ssr always does) it carries GoTrue's "pkce_" prefix. Only its SHA-256 is stored,
 * so a copy of the database does not hold usable links.
 */
function newRecoveryToken(pkce: boolean) {
  const secret = crypto.randomBytes(32).toString('base64url')
  return pkce ? `pkce_${secret}` : secret
}

function storedTokenHash(tokenHash: string) {
  return crypto.createHash('sha256').update(tokenHash).digest('hex')
}

/**
 * Stores a fresh recovery token for the user (replacing any earlier one, so only the latest link
 * works) and returns the reset email to send once the transaction has committed.
 */
export async function prepareRecoveryEmail(
  db: Queryable,
  { user, redirectTo, pkce, langHint }: { user: UserRow; redirectTo: string; pkce: boolean; langHint?: string | null },
): Promise<Mail> {
  const tokenHash = newRecoveryToken(pkce)
  await db.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1', [user.id, storedTokenHash(tokenHash)])
  // The link the Supabase SSR guide puts in the template: the app's own page verifies the
  // token server-side with verifyOtp({ type: 'recovery', token_hash }).
  const link = withQuery(redirectTo, { token_hash: tokenHash, type: 'recovery' })
  // The language the person asked in (the app's hint), else the one stored with the account, else English.
  const lang = emailLanguage(langHint, user.raw_user_meta_data?.locale)
  return { to: user.email ?? '', ...passwordResetEmail({ link, lang, expiresInMinutes: RECOVERY_TOKEN_TTL_SECONDS / 60 }), link }
}

/**
 * Consumes a recovery token: returns the user id when `tokenHash` is a stored, unexpired token
 * and clears it so the link works only once. Undefined otherwise.
 */
export async function consumeRecoveryToken(db: Queryable, tokenHash: string) {
  const { rows } = await db.query<{ id: string; expired: boolean }>(
    `select id, recovery_sent_at is null or recovery_sent_at < now() - make_interval(secs => $2) as expired
       from auth.users
      where recovery_token = $1
      for update`,
    [storedTokenHash(tokenHash), RECOVERY_TOKEN_TTL_SECONDS],
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
