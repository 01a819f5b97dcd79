import { emailLanguage, existingAccountEmail as renderExistingAccountEmail } from '#app/.server/email/templates.ts'
import type { Mail } from '#app/.server/email/mailer.ts'

/**
 * Sent instead of "already registered" when someone signs up with an address that has an account: the owner learns of
 * the attempt (and how to get in), the person signing up learns nothing. In the owner's language when the server knows
 * it (user metadata `locale`), else the attempt's, else English; the product's email layout (app/.server/email).
 */
export function existingAccountEmail({ to, siteUrl, locales }: { to: string; siteUrl: string; locales: unknown[] }): Mail {
  const signInLink = new URL('/login', siteUrl).href
  const resetLink = new URL('/login?mode=forgot', siteUrl).href
  return { to, ...renderExistingAccountEmail({ signInLink, resetLink, lang: emailLanguage(...locales) }), link: signInLink }
}
