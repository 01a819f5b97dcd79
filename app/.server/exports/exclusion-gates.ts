/**
 * The lead gates of "Credits users can trust": only new businesses (already_exported) and the do-not-contact list
 * (dnc_<kind>). Both judge a business by what the search knows of it, before any task exists, so nothing they
 * leave out is linked or charged.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { readDncList } from '#app/.server/do-not-contact/store.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { allowedEmails, dncExclusionReason, indexDncList } from '#app/domain/do-not-contact.ts'
import { storable } from './enrichers.ts'
import type { LeadGateFactory } from './lead-gates.ts'

/** "Only new businesses": leaves out a business linked to any other export of the user (this one's own links stay, so a re-run keeps them). */
export const alreadyExportedGate: LeadGateFactory = async (db, row) => {
  if (row.search_params?.onlyNew !== true) return null
  return {
    async judge(batch) {
      const placeIds = batch.map((business) => storable(business.placeId))
      const linked = await exportedElsewhere(db, row.user_id, row.id, placeIds)
      return new Map(batch.filter((business) => linked.has(`${business.source}\u0000${storable(business.placeId)}`)).map((business) => [business, 'already_exported']))
    },
  }
}

async function exportedElsewhere(db: Kysely<Database>, userId: string, exportId: string, placeIds: string[]): Promise<Set<string>> {
  if (placeIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('leads as l')
    .select(['l.source', 'l.place_id'])
    .where('l.user_id', '=', userId)
    .where('l.place_id', 'in', placeIds)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('export_leads as el')
          .select('el.lead_id')
          .whereRef('el.lead_id', '=', 'l.id')
          .where('el.user_id', '=', userId)
          .where('el.export_id', '!=', exportId),
      ),
    )
    .execute()
  return new Set(rows.map((row) => `${row.source}\u0000${row.place_id}`))
}

/**
 * The do-not-contact list, read once per run. A kept business also loses the listed addresses its source gave,
 * so they are never stored with the lead (the email results are filtered again after the crawl: dnc-enrichers.ts).
 */
export const doNotContactGate: LeadGateFactory = async (db, row) => {
  const entries = await readDncList(db, row.user_id)
  if (entries.length === 0) return null
  const index = indexDncList(entries)
  return {
    judge(batch: readonly Business[]) {
      const verdicts = new Map<Business, string>()
      for (const business of batch) {
        const reason = dncExclusionReason(index, {
          source: business.source,
          placeId: storable(business.placeId),
          website: business.website,
          phones: business.phone ? [business.phone] : [],
          emails: business.email,
          siret: business.siret ?? null,
          countryCode: business.countryCode,
        })
        if (reason) verdicts.set(business, `dnc_${reason}`)
        else business.email = allowedEmails(index, business.email)
      }
      return verdicts
    },
  }
}
