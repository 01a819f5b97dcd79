/**
 * The lead gates of "Credits users can trust": only new businesses (already_exported) and the do-not-contact list
 * (dnc_<kind>). Both judge a business by what the search knows of it, before any task exists, so nothing they
 * leave out is linked or charged.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { readDncList } from '#app/.server/do-not-contact/store.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { allowedEmails, type CompanyIds, dncExclusionReason, type DncIndex, indexDncList, registryMatchIds } from '#app/domain/do-not-contact.ts'
import { cleanSiret } from '#app/.server/enrichment/siret.ts'
import { storable } from './enrichers.ts'
import type { LeadGateFactory } from './lead-gates.ts'

/**
 * "Only new businesses": leaves out a business linked to any other export of the user (this one's own links stay, so
 * a re-run keeps them): the same source id, or — when the source knows the business's SIRET — the same company
 * establishment under another id (another source, or a listing re-created upstream).
 */
export const alreadyExportedGate: LeadGateFactory = async (db, row) => {
  if (row.search_params?.onlyNew !== true) return null
  return {
    async judge(batch) {
      const placeIds = batch.map((business) => storable(business.placeId))
      const linked = await exportedElsewhere(db, row.user_id, row.id, placeIds)
      const byPlace = batch.filter((business) => linked.has(`${business.source}\u0000${storable(business.placeId)}`))
      const rest = batch.filter((business) => !byPlace.includes(business))
      const received = await receivedEstablishments(db, row.user_id, row.id, rest.map((business) => cleanSiret(business.siret)).filter((siret) => siret !== null))
      const bySiret = rest.filter((business) => {
        const siret = cleanSiret(business.siret)
        return siret !== null && (received.sirets.has(siret) || received.sirensOnly.has(siret.slice(0, 9)))
      })
      return new Map([...byPlace, ...bySiret].map((business) => [business, 'already_exported']))
    },
  }
}

/**
 * The establishments among `sirets` the user already received in another export, by the registry's best match on
 * their leads: its SIRET, or its SIREN when the registry knew only the company (then any establishment of it counts).
 */
async function receivedEstablishments(db: Kysely<Database>, userId: string, exportId: string, sirets: string[]): Promise<{ sirets: Set<string>; sirensOnly: Set<string> }> {
  if (sirets.length === 0) return { sirets: new Set(), sirensOnly: new Set() }
  const sirens = sirets.map((siret) => siret.slice(0, 9))
  const { rows } = await sql<{ siret: string | null; siren: string | null }>`
    select l.admin_fr_info -> 'results' -> 0 ->> 'siret' as siret, l.admin_fr_info -> 'results' -> 0 ->> 'siren' as siren
      from public.leads l
     where l.user_id = ${userId}
       and (l.admin_fr_info -> 'results' -> 0 ->> 'siret' = any(${sirets}::text[])
            or l.admin_fr_info -> 'results' -> 0 ->> 'siren' = any(${sirens}::text[]))
       and exists (select 1 from public.export_leads el where el.lead_id = l.id and el.user_id = ${userId} and el.export_id <> ${exportId})`.execute(db)
  return {
    sirets: new Set(rows.flatMap((found) => (found.siret ? [found.siret] : []))),
    sirensOnly: new Set(rows.flatMap((found) => (!found.siret && found.siren ? [found.siren] : []))),
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

/** A registry-first candidate carries its registry establishment (search-phase.ts). */
export type WithRegistryData = Business & { adminFrInfo?: unknown }

const businessKey = (source: string, placeId: string) => `${source}\u0000${placeId}`

/**
 * The registry matches already stored for these businesses, by business: the user's own lead's (an earlier export
 * matched it) and the account-wide results store's (what the enrichment would reuse instead of asking again). Any
 * age: an opt-out is honoured on the best knowledge there is, even one older than the reuse window.
 */
export async function storedMatches(db: Kysely<Database>, userId: string, batch: readonly Business[]): Promise<Map<string, CompanyIds[]>> {
  const sources = [...new Set(batch.map((business) => business.source))]
  const placeIds = [...new Set(batch.map((business) => storable(business.placeId)))]
  // Both lookups walk their table's unique key (user, source, place id / source, place id, task).
  const { rows } = await sql<{ source: string; place_id: string; info: unknown }>`
    select l.source, l.place_id, l.admin_fr_info as info
      from public.leads l
     where l.user_id = ${userId} and l.source = any(${sources}::text[]) and l.place_id = any(${placeIds}::text[]) and l.admin_fr_info is not null
    union all
    select r.source, r.place_id, r.value -> 'admin_fr_info' as info
      from public.enrichment_results r
     where r.source = any(${sources}::text[]) and r.place_id = any(${placeIds}::text[]) and r.task = 'admin_fr_info'`.execute(db)
  const found = new Map<string, CompanyIds[]>()
  for (const row of rows) {
    const ids = registryMatchIds(row.info)
    if (!ids) continue
    const key = businessKey(row.source, row.place_id)
    found.set(key, [...(found.get(key) ?? []), ids])
  }
  return found
}

/** Every identity the search knows a business by (do-not-contact.ts DncCandidate.companies). */
export function companiesOf(business: WithRegistryData, stored: ReadonlyMap<string, CompanyIds[]>): CompanyIds[] {
  const companies: CompanyIds[] = []
  const sourceSiret = business.siret?.replace(/\D/g, '')
  if (sourceSiret) companies.push({ siret: sourceSiret, siren: null })
  const registry = registryMatchIds(business.adminFrInfo)
  if (registry) companies.push(registry)
  companies.push(...(stored.get(businessKey(business.source, storable(business.placeId))) ?? []))
  return companies
}

const listsCompanies = (index: DncIndex) => index.byKind.siret.size > 0 || index.byKind.siren.size > 0

/**
 * The do-not-contact list, read once per run. A SIREN or SIRET entry catches a business by any identity known before
 * anything is spent on it (companiesOf): a registry-first establishment by its own, a map business by its source's
 * SIRET or a registry match already stored. A kept business also loses the listed addresses its source gave, so they
 * are never stored with the lead (the email results are filtered again after the crawl: dnc-enrichers.ts).
 */
export const doNotContactGate: LeadGateFactory = async (db, row) => {
  const entries = await readDncList(db, row.user_id)
  if (entries.length === 0) return null
  const index = indexDncList(entries)
  return {
    async judge(batch: readonly WithRegistryData[]) {
      const stored = listsCompanies(index) ? await storedMatches(db, row.user_id, batch) : new Map<string, CompanyIds[]>()
      const verdicts = new Map<Business, string>()
      for (const business of batch) {
        const reason = dncExclusionReason(index, {
          source: business.source,
          placeId: storable(business.placeId),
          website: business.website,
          phones: business.phone ? [business.phone] : [],
          emails: business.email,
          companies: companiesOf(business, stored),
          countryCode: business.countryCode,
        })
        if (reason) verdicts.set(business, `dnc_${reason}`)
        else business.email = allowedEmails(index, business.email)
      }
      return verdicts
    },
  }
}
