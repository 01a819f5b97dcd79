/**
 * Stored emails are verified again before they are delivered again (README "Email verification", re-verification):
 * a domain that took mail when the address was found may have lapsed since. An address whose check is older than
 * EMAIL_RECHECK_DAYS (or that was never checked) goes through the verifier once more; the ones now invalid are
 * dropped, the others carry the new check and its date. When DNS is unusable (the check came back unverified) the
 * address is kept, delivered "unverified", and keeps its old date: it is verified again by the next export.
 */
import type { EmailSourcesJson } from '#app/.server/db.ts'
import { verifyFoundEmails, type EmailVerifier } from '#app/.server/enrichment/email-verification.ts'

/** An email result as the results store keeps it (the leads columns it fills). */
export interface StoredEmails {
  email?: string[]
  email_sources?: EmailSourcesJson
}

const DAY_MS = 86_400_000

/** When the address was last verified: its check's date, else the day it was found (checked in the same run). */
function checkedAt(source: EmailSourcesJson[string] | undefined): number {
  if (!source?.check) return Number.NaN
  return Date.parse(source.check.checked_at ?? source.found_at)
}

/** The addresses whose check is missing or older than `recheckDays` days. */
export function staleEmails(value: StoredEmails, recheckDays: number, now: Date): string[] {
  const sources = value.email_sources ?? {}
  const oldest = now.getTime() - recheckDays * DAY_MS
  return (value.email ?? []).filter((email) => !(checkedAt(sources[email]) > oldest))
}

/**
 * The stored value with its stale addresses verified again (`changed`: a check ran, the store should keep the
 * result). Without a verifier nothing is checked: the addresses are delivered as they were stored.
 */
export async function recheckStoredEmails(
  value: StoredEmails,
  verifier: EmailVerifier | undefined,
  { recheckDays, now = new Date(), signal }: { recheckDays: number; now?: Date; signal?: AbortSignal },
): Promise<{ value: StoredEmails; changed: boolean }> {
  const stale = verifier ? staleEmails(value, recheckDays, now) : []
  if (stale.length === 0) return { value, changed: false }
  const { kept, checks } = await verifyFoundEmails(verifier, stale, signal)
  const dropped = new Set(stale.filter((email) => !kept.includes(email)))
  const checkedOn = now.toISOString()
  const sources: EmailSourcesJson = {}
  for (const [email, source] of Object.entries(value.email_sources ?? {})) {
    if (dropped.has(email)) continue
    const check = checks[email]
    const checkedAtNow = check?.status === 'unverified' ? source.check?.checked_at : checkedOn
    sources[email] = check ? { ...source, check: { ...check, ...(checkedAtNow ? { checked_at: checkedAtNow } : {}) } } : source
  }
  return { value: { ...value, email: (value.email ?? []).filter((email) => !dropped.has(email)), email_sources: sources }, changed: true }
}
