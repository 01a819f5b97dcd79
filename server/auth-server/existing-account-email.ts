import en from '#app/locales/en.json' with { type: 'json' }
import fr from '#app/locales/fr.json' with { type: 'json' }
import type { Mail } from './mailer.ts'

const TEXTS = { en: en.auth.existingAccountEmail, fr: fr.auth.existingAccountEmail }
type Language = keyof typeof TEXTS

/** The account owner's language when the server knows it (user metadata `locale`), else English. */
function languageOf(...candidates: unknown[]): Language {
  const known = candidates.find((value): value is Language => typeof value === 'string' && Object.hasOwn(TEXTS, value))
  return known ?? 'en'
}

/**
 * Sent instead of "already registered" when someone signs up with an address that has an account:
 * the owner learns of the attempt (and how to get in), the person signing up learns nothing.
 */
export function existingAccountEmail({ to, siteUrl, locales }: { to: string; siteUrl: string; locales: unknown[] }): Mail {
  const text = TEXTS[languageOf(...locales)]
  const signInLink = new URL('/login', siteUrl).href
  const resetLink = new URL('/login?mode=forgot', siteUrl).href
  const paragraphs = [text.body, `${text.signIn} ${signInLink}`, `${text.reset} ${resetLink}`, text.ignore]
  return {
    to,
    subject: text.subject,
    text: [text.heading, '', ...paragraphs.flatMap((line) => [line, ''])].join('\n').trimEnd(),
    html: [`<h2>${escapeHtml(text.heading)}</h2>`, ...paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`)].join('\n'),
    link: signInLink,
  }
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
