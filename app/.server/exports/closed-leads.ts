/**
 * "Exclude permanently closed" also applies to what the French registry says, which is only known once the registry
 * step has run for a lead: a lead whose confident registry match no longer trades (establishment fermé, legal unit
 * cessée) is taken out of the export before its outcomes are recorded, so none of its enrichments is charged, and
 * the export counts it (exports.excluded.registry_closed). A lead already holding recorded results in this export
 * (an enrichment added later) keeps them: it is flagged on the page, never removed.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { isClosedMatch } from '#app/.server/enrichment/registry-labels.ts'
import { STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { storedFilters } from '#app/domain/search-filters.ts'
import type { LeadEnrichmentResult } from './enrichers.ts'

/** A name-and-place match or a SIRET printed on the site; a weaker match may be another company that closed. */
export const CLOSED_MATCH_MIN_CONFIDENCE = 0.9

const REGISTRY_CLOSED = 'registry_closed'

/** Whether the export asked to leave closed businesses out (the search filter "Exclude permanently closed"). */
export function excludesClosed(searchParams: { filters?: unknown } | null | undefined): boolean {
  return storedFilters(searchParams?.filters).excludeClosed
}

/** Whether this lead's fresh registry match is confident and says the business no longer trades. */
export function closedInRegistry(result: LeadEnrichmentResult): boolean {
  if (result.outcomes.admin_fr_info !== 'success') return false
  const info = result.values.admin_fr_info as { confidence?: unknown } | undefined
  return typeof info?.confidence === 'number' && info.confidence >= CLOSED_MATCH_MIN_CONFIDENCE && isClosedMatch(info)
}

const NOTHING_RECORDED = sql.join(
  STATUS_COLUMNS.map((column) => sql`${sql.ref(column)} in ('pending', 'not_required')`),
  sql` and `,
)

/**
 * Takes the lead out of the export when nothing of it is recorded yet, and counts it under `reason`; false when it
 * holds results (or is gone). One statement: a racing worker recording the same lead either sees it gone or keeps it.
 */
export async function leaveOutLead(db: Kysely<Database>, exportId: string, leadId: string, reason: string = REGISTRY_CLOSED): Promise<boolean> {
  const { rows } = await sql<{ removed: number }>`
    with removed as (
      delete from public.export_leads
       where export_id = ${exportId}::uuid and lead_id = ${leadId}::uuid and ${NOTHING_RECORDED}
      returning 1
    ), counted as (
      update public.exports
         set excluded = excluded || jsonb_build_object(${reason}::text, coalesce((excluded ->> ${reason})::int, 0) + 1),
             lead_count = greatest(lead_count - 1, 0)
       where id = ${exportId}::uuid and exists (select 1 from removed)
      returning 1
    )
    select (select count(*) from removed)::int as removed`.execute(db)
  return (rows[0]?.removed ?? 0) > 0
}
