import crypto from 'node:crypto'
import type { AuthContext } from './context.ts'
import { existingAccountEmail } from './existing-account-email.ts'
import type { JsonObject } from './http.ts'
import { hashPassword } from './passwords.ts'
import type { Reply } from './reply.ts'
import type { UserRow } from './users.ts'

/**
 * A sign-up with an address that already has an account, answered as hosted Supabase does with
 * email enumeration protection: 200 with an obfuscated user (random id, no session,
 * `identities: []`) instead of 422 "User already registered". The password is hashed anyway so
 * the answer takes as long as a real sign-up, and the owner is told by email.
 */
export async function answerExistingAddress(ctx: AuthContext, user: UserRow, attempt: { email: string; password: string; metadata: JsonObject }): Promise<Reply> {
  await hashPassword(attempt.password)
  // Not awaited: an SMTP round trip would make this answer slower than a real sign-up.
  void notifyOwner(ctx, user, attempt.metadata)
  return { status: 200, body: obfuscatedUser(attempt.email, attempt.metadata) }
}

/** GoTrue's sanitizeUser, with the role a real sign-up answers, so the two look alike. */
function obfuscatedUser(email: string, metadata: JsonObject) {
  const now = new Date().toISOString()
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: metadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  }
}

/** At most RATE_LIMIT_FORGOT_EMAIL notices per address, so sign-up attempts cannot flood an inbox. */
async function notifyOwner(ctx: AuthContext, user: UserRow, attemptMetadata: JsonObject) {
  try {
    const to = user.email ?? ''
    const allowed = await ctx.rateLimiter.consume('forgotEmail', to)
    if (!allowed.ok) return
    const mail = existingAccountEmail({ to, siteUrl: ctx.siteUrl, locales: [user.raw_user_meta_data?.locale, attemptMetadata.locale] })
    await ctx.mailer.send(ctx.pool, mail)
  } catch (error) {
    console.error('[auth-server] the existing-account notice could not be sent:', (error as Error).message)
  }
}
