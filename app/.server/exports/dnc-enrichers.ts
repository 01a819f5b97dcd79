/**
 * The do-not-contact list in the enrichment phase, as a wrapper around the injected enrichers (so the phase itself
 * does not change): listed addresses, and addresses at listed domains, are removed from the email results before
 * they are recorded (an email task left with none is not_found, so not charged); a company the crawl or the
 * registry identifies as listed (SIREN / SIRET) gives nothing: every task of the lead ends not_found, uncharged
 * (enrichers.ts givesNothing; README "Only new businesses and the do-not-contact list").
 * What it removed is added to exports.excluded (dnc_email, dnc_registry) as each lead is recorded, so the counts
 * are there when the export completes.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { readDncList } from '#app/.server/do-not-contact/store.ts'
import { allowedEmails, companyListing, indexDncList, registryMatchIds } from '#app/domain/do-not-contact.ts'
import type { Enrichers, WebsiteFindings } from './enrichers.ts'

export interface DncEnrichers {
  enrichers: Enrichers
  /** Adds what was removed since the last call to the export's exclusion counts. */
  record(exportId: string): Promise<void>
}

const LISTED: WebsiteFindings = { status: 'not_found', finalUrl: null, emails: [], socialMedia: {}, technologies: {}, phones: [], siret: null, siren: null, listed: true }

export async function withDoNotContact(db: Kysely<Database>, userId: string, enrichers: Enrichers): Promise<DncEnrichers> {
  const entries = await readDncList(db, userId)
  if (entries.length === 0) return { enrichers, record: async () => {} }
  const index = indexDncList(entries)
  const removed = { dnc_email: 0, dnc_registry: 0 }
  const wrapped: Enrichers = {
    normalizePhone: (raw, countryCode) => enrichers.normalizePhone(raw, countryCode),
    emailVerifier: enrichers.emailVerifier,
    reachSite: enrichers.reachSite ? (url, options) => enrichers.reachSite?.(url, options) ?? Promise.resolve(null) : undefined,
    close: enrichers.close ? () => enrichers.close?.() ?? Promise.resolve() : undefined,
    async crawl(url, options) {
      const findings = await enrichers.crawl(url, options)
      if (!companyListing(index, { siret: findings.siret, siren: findings.siren ?? null })) return findings
      removed.dnc_registry++
      return LISTED
    },
    async lookupRegistry(query, options) {
      const result = await enrichers.lookupRegistry(query, options)
      const ids = result.status === 'success' ? registryMatchIds(result.info) : null
      if (!ids || !companyListing(index, ids)) return result
      removed.dnc_registry++
      return { status: 'not_found', listed: true }
    },
    allowedEmails(emails) {
      const allowed = allowedEmails(index, enrichers.allowedEmails ? enrichers.allowedEmails(emails) : emails)
      removed.dnc_email += emails.length - allowed.length
      return allowed
    },
  }
  const record = async (exportId: string) => {
    const delta = { ...removed }
    removed.dnc_email = 0
    removed.dnc_registry = 0
    await addExcluded(db, exportId, delta)
  }
  return { enrichers: wrapped, record }
}

async function addExcluded(db: Kysely<Database>, exportId: string, counts: Record<string, number>): Promise<void> {
  for (const [reason, count] of Object.entries(counts)) {
    if (count === 0) continue
    await db
      .updateTable('exports')
      .set({ excluded: sql`excluded || jsonb_build_object(${reason}::text, coalesce((excluded ->> ${reason})::int, 0) + ${count}::int)` })
      .where('id', '=', exportId)
      .execute()
  }
}
