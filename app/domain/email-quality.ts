// Email verification rules (issue "Contact quality", item 1; README "Email verification"). Pure: the facts
// (DNS answer, disposable list, SMTP answer) are gathered by app/.server/enrichment/email-verification.ts, the
// status is decided here. Shared by client and server (file columns).
import type { FileLabel, FileLang } from './file-language.ts'

export type EmailStatus = 'valid' | 'risky' | 'unverified' | 'invalid'

/**
 * What DNS says of the domain: it takes mail (MX, or A/AAAA fallback), it does not (NXDOMAIN, no record, null MX),
 * unknown now (SERVFAIL, timeout), or unverifiable: the resolver denies the canary domain too (a sandbox or a broken
 * corporate DNS answering NXDOMAIN for everything), so its "does not exist" proves nothing.
 */
export type DomainMail = 'mail' | 'no_mail' | 'unknown' | 'unverifiable'

/** The optional SMTP mailbox check: not run (undefined), or what the domain's mail server answered. */
export type MailboxAnswer = 'accepted' | 'rejected' | 'catch_all' | 'unknown'

export type EmailReason = 'syntax' | 'disposable' | 'no_mail' | 'dns_unavailable' | 'dns_unusable' | 'catch_all' | 'mailbox_refused' | 'smtp_unavailable'

/** Stored per email with the lead (leads.email_sources[email].check). */
export interface EmailCheck {
  status: EmailStatus
  /** Why it is not valid (absent when valid). */
  reason?: EmailReason
  /** A function address (contact@, info@…) rather than a person's. */
  role: boolean
  /** A free webmail domain (gmail.com, orange.fr…) rather than the business's own. */
  webmail: boolean
}

export interface EmailFacts {
  syntax: boolean
  disposable: boolean
  domain: DomainMail
  mailbox?: MailboxAnswer
}

const LOCAL_MAX = 64
const ADDRESS_MAX = 254
const DOMAIN_MAX = 253
// RFC 5322 atext: the characters of a dot-atom local part.
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i
// RFC 5321 quoted-string: printable ASCII, with \ escaping.
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/** The domain in ASCII (punycode) and lower case, or null when it is no hostname. */
function asciiDomain(domain: string): string | null {
  if (!domain || domain.length > DOMAIN_MAX * 4 || /[\s/\\@:[\]?#%]/.test(domain)) return null
  let host: string
  try {
    host = new URL(`http://${domain}`).hostname
  } catch {
    return null
  }
  const labels = host.split('.')
  if (host.length > DOMAIN_MAX || labels.length < 2) return null
  if (!labels.every((label) => LABEL.test(label))) return null
  return TLD.test(labels.at(-1) as string) ? host : null
}

/**
 * Whether mail servers accept the address (RFC 5321 mailbox with an RFC 5322 dot-atom or quoted local part):
 * at most 64 octets before the @, 254 in all, a hostname domain of two labels or more. Address literals
 * (user@[1.2.3.4]) are refused: a business prospect has a domain.
 */
export function isDeliverableSyntax(email: string): boolean {
  const at = email.lastIndexOf('@')
  if (at <= 0 || at === email.length - 1) return false
  const local = email.slice(0, at)
  const domain = asciiDomain(email.slice(at + 1))
  if (!domain || new TextEncoder().encode(local).length > LOCAL_MAX) return false
  if (local.length + 1 + domain.length > ADDRESS_MAX) return false
  return DOT_ATOM.test(local) || QUOTED.test(local)
}

/** The domain after the last @, in ASCII lower case (null when none). */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@')
  return at < 0 ? null : asciiDomain(email.slice(at + 1).trim().toLowerCase())
}

/** Function mailboxes, French and English (exact local part, or with a digit/dot suffix: contact2@, info.paris@). */
const ROLE_LOCALS = new Set([
  'contact', 'contacts', 'info', 'infos', 'information', 'informations', 'accueil', 'bonjour', 'hello', 'hi', 'admin',
  'administration', 'office', 'bureau', 'secretariat', 'direction', 'commercial', 'commerciale', 'ventes', 'vente', 'sales',
  'compta', 'comptabilite', 'facturation', 'factures', 'billing', 'devis', 'commande', 'commandes', 'reservation',
  'reservations', 'booking', 'rh', 'recrutement', 'jobs', 'emploi', 'careers', 'support', 'sav', 'service', 'services',
  'serviceclient', 'service-client', 'clients', 'marketing', 'communication', 'presse', 'press', 'webmaster', 'postmaster',
  'abuse', 'noreply', 'no-reply', 'mail', 'email', 'team', 'equipe', 'agence', 'cabinet', 'magasin', 'boutique', 'shop',
  'atelier', 'restaurant', 'hotel', 'mairie', 'ecole', 'association', 'asso', 'general', 'enquiries', 'inquiries',
])

export function isRoleAddress(email: string): boolean {
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase()
  const base = local.split(/[.+_]/)[0]?.replace(/\d+$/, '') ?? ''
  return ROLE_LOCALS.has(local) || ROLE_LOCALS.has(base)
}

/** Free webmail domains common in France (a business address on one of them is not the business's own domain). */
const WEBMAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.fr', 'yahoo.com', 'ymail.com', 'hotmail.fr', 'hotmail.com', 'outlook.fr',
  'outlook.com', 'live.fr', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'aol.fr', 'orange.fr',
  'wanadoo.fr', 'free.fr', 'sfr.fr', 'neuf.fr', 'cegetel.net', 'club-internet.fr', 'aliceadsl.fr', 'numericable.fr',
  'bbox.fr', 'laposte.net', 'gmx.fr', 'gmx.com', 'gmx.de', 'protonmail.com', 'proton.me', 'yandex.com', 'yandex.ru',
  'mail.com', 'mail.ru', 'tutanota.com', 'zoho.com',
])

export function isWebmailDomain(domain: string): boolean {
  return WEBMAIL_DOMAINS.has(domain.toLowerCase())
}

/**
 * The status from the facts:
 *   invalid  bad syntax, a disposable domain, a domain without mail (NXDOMAIN, no MX/A/AAAA, null MX), or the
 *            mail server refusing this mailbox (SMTP check)
 *   risky    DNS cannot answer now (SERVFAIL, timeout), the domain accepts any address (catch-all, SMTP check),
 *            or the SMTP check could not conclude
 *   unverified  DNS is unusable (it denies the canary domain as well): kept and delivered like risky, never valid
 *   valid    otherwise
 */
export function decideEmailStatus(facts: EmailFacts): { status: EmailStatus; reason?: EmailReason } {
  if (!facts.syntax) return { status: 'invalid', reason: 'syntax' }
  if (facts.disposable) return { status: 'invalid', reason: 'disposable' }
  if (facts.domain === 'no_mail') return { status: 'invalid', reason: 'no_mail' }
  if (facts.domain === 'unknown') return { status: 'risky', reason: 'dns_unavailable' }
  if (facts.domain === 'unverifiable') return { status: 'unverified', reason: 'dns_unusable' }
  switch (facts.mailbox) {
    case 'rejected':
      return { status: 'invalid', reason: 'mailbox_refused' }
    case 'catch_all':
      return { status: 'risky', reason: 'catch_all' }
    case 'unknown':
      return { status: 'risky', reason: 'smtp_unavailable' }
    default:
      return { status: 'valid' }
  }
}

export function emailCheck(email: string, facts: EmailFacts): EmailCheck {
  const domain = emailDomain(email)
  return { ...decideEmailStatus(facts), role: isRoleAddress(email), webmail: domain !== null && isWebmailDomain(domain) }
}

/** Only valid, risky and unverified addresses are delivered (and paid for): invalid ones are dropped. */
export function isKept(check: Pick<EmailCheck, 'status'>): boolean {
  return check.status !== 'invalid'
}

const EMAIL_STATUS_LABELS: Record<EmailStatus, FileLabel> = {
  valid: { en: 'valid', fr: 'valide' },
  risky: { en: 'risky', fr: 'à risque' },
  unverified: { en: 'unverified', fr: 'non vérifiée' },
  invalid: { en: 'invalid', fr: 'invalide' },
}

const EMAIL_REASON_LABELS: Record<EmailReason, FileLabel> = {
  syntax: { en: 'bad syntax', fr: 'syntaxe incorrecte' },
  disposable: { en: 'disposable domain', fr: 'domaine jetable' },
  no_mail: { en: 'domain takes no mail', fr: 'domaine sans messagerie' },
  dns_unavailable: { en: 'DNS unavailable', fr: 'DNS indisponible' },
  dns_unusable: { en: 'DNS unusable, verification unavailable', fr: 'DNS inutilisable, vérification impossible' },
  catch_all: { en: 'catch-all domain', fr: 'domaine qui accepte tout' },
  mailbox_refused: { en: 'mailbox refused', fr: 'boîte refusée' },
  smtp_unavailable: { en: 'mail server unavailable', fr: 'serveur de messagerie indisponible' },
}

const EMAIL_FLAG_LABELS = {
  role: { en: 'role', fr: 'générique' },
  personal: { en: 'personal', fr: 'nominative' },
  webmail: { en: 'webmail', fr: 'webmail' },
} satisfies Record<string, FileLabel>

/** One address's check as the "Email status" cell writes it: "valid, role" / "à risque (DNS indisponible), nominative, webmail". */
function emailCheckLabel(check: Partial<EmailCheck> & { status: EmailStatus }, lang: FileLang): string {
  const status = EMAIL_STATUS_LABELS[check.status]?.[lang] ?? check.status
  const reason = check.reason ? (EMAIL_REASON_LABELS[check.reason]?.[lang] ?? check.reason) : null
  const flags = [reason ? `${status} (${reason})` : status, EMAIL_FLAG_LABELS[check.role ? 'role' : 'personal'][lang], check.webmail ? EMAIL_FLAG_LABELS.webmail[lang] : null]
  return flags.filter(Boolean).join(', ')
}

/** The "Email status" file cell: `address: status[ (reason)], role|personal[, webmail]`, per address, in the emails' order and the file's language. */
export function formatEmailChecks(emails: unknown, sources: unknown, lang: FileLang): string | null {
  if (!Array.isArray(emails) || !sources || typeof sources !== 'object') return null
  const byEmail = sources as Record<string, { check?: Partial<EmailCheck> } | undefined>
  const parts = emails.flatMap((email) => {
    const check = typeof email === 'string' ? byEmail[email]?.check : undefined
    if (!check?.status) return []
    return [`${email}: ${emailCheckLabel({ ...check, status: check.status }, lang)}`]
  })
  return parts.length ? parts.join('; ') : null
}

/** The download option "valid only": which addresses a file keeps. */
export type EmailFilter = 'all' | 'valid'

export function isEmailFilter(value: unknown): value is EmailFilter {
  return value === 'all' || value === 'valid'
}

/** The row with only its `valid` addresses (unverified ones, found before verification existed, are left out too). */
export function validEmailsOnly<R extends Readonly<Record<string, unknown>>>(row: R): R {
  if (!Array.isArray(row.email)) return row
  const sources = (row.email_sources && typeof row.email_sources === 'object' ? row.email_sources : {}) as Record<string, { check?: { status?: unknown } } | undefined>
  const kept = row.email.filter((email) => typeof email === 'string' && sources[email]?.check?.status === 'valid')
  return { ...row, email: kept.length ? kept : null }
}
