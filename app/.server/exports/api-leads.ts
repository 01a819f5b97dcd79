// A page of an export's leads as the public API shows them (app/domain/api-lead.ts), read as the user: RLS decides
// whether the export exists, so another user's export is simply not found. Keyset pagination on the file order
// (position, then lead id): a page costs the same at the end of an export as at its start, and leads added while a
// client pages (a running export) never shift what it has already read. Two queries, whatever the page size.
import { sql } from 'kysely'
import { z } from 'zod'
import { chosenEnrichments, toApiLead, type ApiLead, type ApiLeadRow } from '#app/domain/api-lead.ts'
import { validEmailsOnly } from '#app/domain/email-quality.ts'
import type { FileLang } from '#app/domain/file-language.ts'
import { isUuid } from '#app/domain/ids.ts'
import { withUser, type UserClaims } from '#app/.server/db.ts'
import { readableRegistryInfo } from '#app/.server/enrichment/registry-labels.ts'
import { LEAD_ROW_SELECT } from './lead-select.ts'
import { withRisks } from '#app/.server/registry-events/lead-risks.ts'

const API_LEADS_DEFAULT_LIMIT = 50
/** A filter on no lead at all (`in ()` is not SQL). */
const NO_LEAD = '00000000-0000-0000-0000-000000000000'
export const API_LEADS_MAX_LIMIT = 1000

/**
 * Where a page ends: [position, lead id] of its last lead, the file order's sort key. The API wraps it in an opaque
 * cursor (app/.server/api-v1/cursor.ts) and checks a returned cursor against this schema before it reaches a query.
 */
export const LeadPositionSchema = z.tuple([z.int().min(0).max(2_147_483_647), z.uuid()])
export type LeadPosition = z.infer<typeof LeadPositionSchema>

export interface ApiLeadsPage {
  data: ApiLead[]
  /** The last lead's position when more leads follow, else null. */
  next: LeadPosition | null
}

export interface ApiLeadsQuery {
  limit?: number
  /** Start after this lead (the `next` of the previous page). */
  after?: LeadPosition | null
  /** Only leads with an address verified valid, and only those addresses (the download's "valid addresses only"). */
  verifiedEmailsOnly?: boolean
  /** Opening hours and registry labels are written in it (default en). */
  lang?: FileLang
  /** Only these leads of the export (a push of the ticked ones): the others are not read at all. */
  leadIds?: readonly string[] | null
}

// An address of the lead whose stored check says valid (leads.email_sources[email].check.status).
const HAS_VERIFIED_EMAIL = sql<boolean>`exists (select 1 from unnest(l.email) as e(address) where l.email_sources -> e.address -> 'check' ->> 'status' = 'valid')`

/**
 * One page of the export's leads, or null when the user has no such export. `limit` is 1..1000 (default 50); `after`
 * (the previous page's `next`) continues after its last lead.
 */
export async function loadApiLeadsPage(claims: UserClaims, exportId: string, query: ApiLeadsQuery = {}): Promise<ApiLeadsPage | null> {
  const { limit = API_LEADS_DEFAULT_LIMIT, after = null, verifiedEmailsOnly = false, lang = 'en', leadIds = null } = query
  if (!Number.isInteger(limit) || limit < 1 || limit > API_LEADS_MAX_LIMIT) throw new RangeError(`limit must be 1..${API_LEADS_MAX_LIMIT}`)
  if (after && !LeadPositionSchema.safeParse(after).success) throw new RangeError('after must be a [position, lead id] of a page')
  if (!isUuid(exportId)) return null
  return withUser(claims, async (trx) => {
    const found = await trx.selectFrom('exports').select('enrichment_options').where('id', '=', exportId).executeTakeFirst()
    if (!found) return null
    let leads = trx
      .selectFrom('export_leads as el')
      .innerJoin('leads as l', 'l.id', 'el.lead_id')
      .select(['l.id', 'el.position', 'l.updated_at', ...LEAD_ROW_SELECT])
      .where('el.export_id', '=', exportId)
    // The first condition lets the (export_id, position) index start at the cursor; the row comparison breaks ties.
    if (after) leads = leads.where('el.position', '>=', after[0]).where(sql<boolean>`(el.position, el.lead_id) > (${after[0]}, ${after[1]}::uuid)`)
    if (verifiedEmailsOnly) leads = leads.where(HAS_VERIFIED_EMAIL)
    if (leadIds) leads = leads.where('el.lead_id', 'in', leadIds.length ? [...leadIds] : [NO_LEAD])
    const rows = await withRisks(await leads.orderBy('el.position').orderBy('el.lead_id').limit(limit + 1).execute())
    const chosen = chosenEnrichments(found.enrichment_options)
    // Registry codes are labelled in the request's language, as the file labels them (the tables stay server-side).
    const labelled = chosen.has('admin_fr_info')
    const data = rows.slice(0, limit).map((row) => {
      const readable = (labelled && row.admin_fr_info ? { ...row, admin_fr_info: readableRegistryInfo(row.admin_fr_info, lang) } : row) as ApiLeadRow
      return toApiLead(verifiedEmailsOnly ? validEmailsOnly(readable) : readable, chosen, lang)
    })
    const last = data.at(-1)
    return { data, next: rows.length > limit && last ? [last.position, last.id] : null }
  })
}
