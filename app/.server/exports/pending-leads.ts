/**
 * The leads of an export that still have a pending task, as the enrichment phase walks them: in position order,
 * paged by keyset so a walk stays cheap however far it goes.
 */
import { sql, type Kysely } from 'kysely'
import type { Database, EnrichmentStatus } from '#app/.server/db.ts'
import { ENRICHMENT_TABLE, STATUS_COLUMNS, type EnrichmentStatusColumn } from '#app/domain/enrichment-types.ts'
import type { LeadForEnrichment, TaskType } from './enrichers.ts'

const ZERO_UUID = '00000000-0000-0000-0000-000000000000'
const PAGE_SIZE = 200

/** Whether a lead (export_leads alias el) has a task left. */
export const ANY_PENDING = sql.raw(`(${STATUS_COLUMNS.map((column) => `el.${column} = 'pending'`).join(' or ')})`)

export type PendingLead = Record<EnrichmentStatusColumn, EnrichmentStatus> & {
  lead_id: string
  position: number
  source: string
  place_id: string | null
  name: string
  phone: string | null
  website: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
  email: string[] | null
  social_media: Record<string, string> | null
}

/** Export lead positions [from, to): one batch (batches.ts). */
export interface PositionRange {
  from: number
  to: number
}

function inRange(range: PositionRange | undefined) {
  return range ? sql`and el.position >= ${range.from} and el.position < ${range.to}` : sql``
}

/**
 * One walk over the pending leads (of `range` only, if given), a page fetched only when the previous one is used up.
 * Stops early once `stopped()` says so. `onPage` counts what the walk found.
 */
export async function* pendingLeads(
  db: Kysely<Database>,
  exportId: string,
  { stopped, onPage, range }: { stopped: () => boolean; onPage: (rows: number) => void; range?: PositionRange },
): AsyncGenerator<PendingLead, void, undefined> {
  let cursor = { position: range ? range.from - 1 : -1, leadId: ZERO_UUID }
  while (!stopped()) {
    const { rows } = await sql<PendingLead>`
      select el.lead_id, el.position, ${sql.raw(STATUS_COLUMNS.map((column) => `el.${column}`).join(', '))},
             l.source, l.place_id, l.name, l.phone, l.website, l.city, l.postal_code, l.country_code, l.email, l.social_media
        from public.export_leads el
        join public.leads l on l.id = el.lead_id
       where el.export_id = ${exportId}
         and ${ANY_PENDING}
         ${inRange(range)}
         and (el.position, el.lead_id) > (${cursor.position}, ${cursor.leadId}::uuid)
       order by el.position, el.lead_id
       limit ${PAGE_SIZE}`.execute(db)
    onPage(rows.length)
    for (const row of rows) {
      if (stopped()) return
      yield row
    }
    const last = rows[rows.length - 1]
    if (!last || rows.length < PAGE_SIZE) return
    cursor = { position: last.position, leadId: last.lead_id }
  }
}

/** Whether the export (or its `range`) still has a lead with a task pending. */
export async function hasPendingLeads(db: Kysely<Database>, exportId: string, range?: PositionRange): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from public.export_leads el where el.export_id = ${exportId} and ${ANY_PENDING} ${inRange(range)}) as found`.execute(db)
  return rows[0]?.found === true
}

export function pendingTasks(lead: PendingLead): Set<TaskType> {
  return new Set(ENRICHMENT_TABLE.filter((entry) => lead[entry.statusColumn] === 'pending').map((entry) => entry.task))
}

export function leadForEnrichment(lead: PendingLead): LeadForEnrichment {
  return {
    name: lead.name,
    phone: lead.phone,
    website: lead.website,
    city: lead.city,
    postalCode: lead.postal_code,
    countryCode: lead.country_code,
    sourceEmails: lead.email ?? [],
    sourceSocialMedia: lead.social_media ?? {},
  }
}
