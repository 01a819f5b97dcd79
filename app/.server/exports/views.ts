// Read models for the exports pages (SPEC §7 data access), always run as the user so RLS decides
// what exists: another user's export is simply not found. progress_percentage is read as the
// pipeline wrote it (progress.ts, the rule of app/domain/exports.ts progressPercentage).
import { storedMaxLeads } from '#app/domain/export-cost.ts'
import { storedFilters, type SearchFilters } from '#app/domain/search-filters.ts'
import { sql, type Transaction } from 'kysely'
import { ENRICHMENT_TABLE, STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { normalizeEnrichmentOptions, type EnrichmentOptions, type ExportStatus, type LeadEnrichmentStatus } from '#app/domain/enrichment.ts'
import { DEFAULT_EXPORT_SORT, STATUS_ORDER, type ExportSort } from '#app/domain/export-list.ts'
import { formatPhone, formatWebsite } from '#app/domain/lead-format.ts'
import { mainPhoneType, otherPhones, type PhoneType } from '#app/domain/phone-sources.ts'
import type { ExportLeadView } from '#app/domain/lead-view.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser, type Database } from '#app/.server/db.ts'
import { normalizePhone, phoneTypeOf } from '#app/.server/enrichment/phones.ts'
import { isClosedMatch } from '#app/.server/enrichment/registry-labels.ts'
import { isNotFoundOnline } from '#app/.server/registry/map-match.ts'
import { isUuid } from '#app/domain/ids.ts'
import { ENRICHED_LEAD_SELECT, STATUS_SELECT } from './lead-select.ts'
import { withRisks } from '#app/.server/registry-events/lead-risks.ts'
import type { LeadRisk } from '#app/domain/risk-shield.ts'

export const LEADS_PAGE_SIZE = 10
interface ExportSummary {
  id: string
  name: string
  status: ExportStatus | string
  leadCount: number
  creditsUsed: number
  createdAt: string | null
  progress: number
}

function iso(value: Date | string | null | undefined): string | null {
  if (!value) return null
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString()
}

/**
 * Exports per page of the list. The list used to render up to 500 rows at once: with 1 000
 * exports that was 470 KB of HTML and a 128 ms p95 server render (bench/pages.ts, budget 50 ms).
 */
export const EXPORTS_PAGE_SIZE = 50

export interface ExportsPage {
  exports: ExportSummary[]
  page: number
  pageCount: number
  /** Whether any of the user's exports (on any page, whatever the filter) is still running. */
  running: boolean
}

/**
 * One page of the user's exports in the requested order (newest first by default), optionally filtered by status;
 * a page past the end shows the last one.
 */
export async function listExports(user: SessionUser, status?: ExportStatus, sort: ExportSort = DEFAULT_EXPORT_SORT, requestedPage = 1, member?: string): Promise<ExportsPage> {
  // A teammate's exports only (issue 29 item 6): the author recorded on each export.
  const byMember = member && isUuid(member) ? member : undefined
  const { rows, page, pageCount, running } = await withUser(user.claims, async (trx) => {
    // The count (of the filter) and whether anything runs, in one read of the user's exports.
    const summary = await trx
      .selectFrom('exports')
      .select([
        (status ? sql<string>`count(*) filter (where status = ${status})` : sql<string>`count(*)`).as('count'),
        sql<boolean>`coalesce(bool_or(status in ('pending', 'processing')), false)`.as('running'),
      ])
      .where('user_id', '=', user.workspace.id)
      .$if(byMember !== undefined, (select) => select.where('created_by', '=', byMember!))
      .executeTakeFirst()
    const total = Number(summary?.count ?? 0)
    const pageCount = Math.max(1, Math.ceil(total / EXPORTS_PAGE_SIZE))
    const page = Math.min(Math.max(1, Number.isFinite(requestedPage) ? Math.floor(requestedPage) : 1), pageCount)
    let query = trx
      .selectFrom('exports')
      .select(['id', 'name', 'status', 'lead_count', 'total_credits_used', 'created_at', 'progress_percentage'])
      .where('user_id', '=', user.workspace.id)
    // Names sort the way people read them (ICU root collation: "école" beside "Ecole", not after "z" as in the
    // database's C locale); ties fall back to newest first so the order is stable across reloads.
    if (sort.key === 'name') query = query.orderBy(sql`name collate "und-x-icu"`, sort.direction)
    else if (sort.key === 'status') query = query.orderBy(sql`array_position(${sql.val([...STATUS_ORDER])}::text[], status)`, sort.direction)
    query = query
      .orderBy('created_at', sort.key === 'date' ? sort.direction : 'desc')
      .orderBy('id')
      .limit(EXPORTS_PAGE_SIZE)
      .offset((page - 1) * EXPORTS_PAGE_SIZE)
    if (status) query = query.where('status', '=', status)
    if (byMember) query = query.where('created_by', '=', byMember)
    return { rows: await query.execute(), page, pageCount, running: summary?.running === true }
  })
  return {
    exports: rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      leadCount: row.lead_count,
      creditsUsed: row.total_credits_used,
      createdAt: iso(row.created_at),
      progress: Number(row.progress_percentage ?? 0),
    })),
    page,
    pageCount,
    running,
  }
}

export interface ExportDetail {
  id: string
  name: string
  status: ExportStatus | string
  createdAt: string | null
  completedAt: string | null
  leadCount: number
  creditsUsed: number
  progress: number
  /** Successes this export reused from the user's earlier purchases, for 0 credits. */
  reusedCount: number
  /** Businesses the search left out before enrichment, by reason (lead-gates.ts). */
  excluded: Record<string, number>
  canResume: boolean
  searchParams: { sector?: string; city?: string; department?: string; region?: string; country?: string; filters: SearchFilters; maxLeads: number | null; onlyNew?: boolean }
  enrichmentOptions: EnrichmentOptions
  leads: ExportLeadView[]
  totalLeads: number
  /** Leads from the demo source are generated: the page says so. */
  isDemo: boolean
  /** Some addresses came back unverified (DNS unusable): the page says verification was unavailable. */
  emailVerificationUnavailable: boolean
  page: number
  pageCount: number
}

/**
 * One page of an export's leads with their statuses. The page is cut from export_leads alone (index on export_id,
 * position), then joined: joining first made Postgres fetch every skipped lead too (last page of 10 000 leads:
 * p50 38 ms, bench/pages.ts).
 */
function leadPage(trx: Transaction<Database>, exportId: string, page: number) {
  const pageLeads = trx
    .selectFrom('export_leads')
    .select(['lead_id', 'position', 'reused', ...STATUS_COLUMNS])
    .where('export_id', '=', exportId)
    .orderBy('position')
    .limit(LEADS_PAGE_SIZE)
    .offset((page - 1) * LEADS_PAGE_SIZE)
    .as('el')
  return trx
    .selectFrom(pageLeads)
    .innerJoin('leads as l', 'l.id', 'el.lead_id')
    .select(['l.id', 'l.name', 'l.city', 'l.country_code', 'l.business_types', 'l.rating', 'l.review_count', 'l.source', 'el.reused', 'l.place_id', ...ENRICHED_LEAD_SELECT, ...STATUS_SELECT])
    .orderBy('el.position')
    .execute()
    .then((rows) => withRisks(rows))
}

/**
 * The main number's line type: as recorded with the number, else read from the number itself (a number the source
 * gave that the enrichment never listed, or a lead stored before phone sources existed), so every phone has its badge.
 */
function mainNumberType(phone: string | null, sources: unknown, country: string | null): PhoneType | null {
  const recorded = mainPhoneType(phone, sources)
  if (recorded || !phone) return recorded
  const number = normalizePhone(phone, country)
  return number ? phoneTypeOf(number) : null
}

function leadView(lead: Awaited<ReturnType<typeof leadPage>>[number]): ExportLeadView {
  return {
    id: lead.id,
    name: lead.name,
    city: lead.city,
    businessTypes: lead.business_types ?? [],
    phone: formatPhone(lead.phone, lead.country_code),
    phoneType: mainNumberType(lead.phone, lead.phone_sources, lead.country_code),
    otherPhones: otherPhones(lead.phone, lead.phone_sources).flatMap(({ number, type }) => {
      const display = formatPhone(number, lead.country_code)
      return display ? [{ ...display, type }] : []
    }),
    website: formatWebsite(lead.website),
    email: Array.isArray(lead.email) ? lead.email : lead.email ? [String(lead.email)] : [],
    technologies: (lead.technologies ?? {}) as Record<string, string | string[]>,
    socialMedia: (lead.social_media ?? {}) as Record<string, string>,
    rating: lead.rating == null ? null : Number(lead.rating),
    reviewCount: lead.review_count,
    statuses: Object.fromEntries(ENRICHMENT_TABLE.map((entry) => [entry.key, lead[entry.statusColumn]])) as Record<string, LeadEnrichmentStatus>,
    reused: reusedByOption(lead.reused),
    registryClosed: isClosedMatch(lead.admin_fr_info),
    notFoundOnline: isNotFoundOnline(lead.admin_fr_info),
    risk: riskOfMatch(lead.admin_fr_info),
    businessRef: `${lead.source}:${lead.place_id}`,
  }
}

/** The risk withRisks attached to the match. */
function riskOfMatch(info: unknown): LeadRisk | null {
  const risk = info && typeof info === 'object' ? (info as { risk?: LeadRisk }).risk : undefined
  return risk ?? null
}

/** export_leads.reused is keyed by task; the page speaks in option keys. */
function reusedByOption(marks: Record<string, string> | null): Record<string, string> {
  return Object.fromEntries(ENRICHMENT_TABLE.flatMap((entry) => (marks?.[entry.task] ? [[entry.key, String(marks[entry.task])]] : [])))
}

/** The file a list's export was made from and how many of its rows matched a business. */
async function listSummary(trx: Transaction<Database>, listId: string, exportId: string) {
  const found = await trx
    .selectFrom('lists')
    .select((eb) => [
      'file_name',
      eb
        .selectFrom('export_leads')
        .select(sql<string>`count(*)`.as('n'))
        .where('export_id', '=', exportId)
        .where(sql<boolean>`list_match ->> 'status' = 'matched'`)
        .as('matched'),
    ])
    .where('id', '=', listId)
    .executeTakeFirst()
  return found ? { fileName: found.file_name, matched: Number(found.matched ?? 0) } : undefined
}

/** One export and one page of its leads (exact count), or null when it is not the user's. */
export async function getExportDetail(user: SessionUser, exportId: string, requestedPage: number): Promise<ExportDetail | null> {
  if (!isUuid(exportId)) return null
  return withUser(user.claims, async (trx) => {
    const row = await trx.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst()
    if (!row) return null
    const counts = await trx
      .selectFrom('export_leads')
      // Most leads reused nothing ('{}'): testing that first skips the per-row key count (10 000 leads: 7.3 → 1.8 ms).
      .select([
        sql<string>`count(*)`.as('count'),
        sql<string>`coalesce(sum(case when reused = '{}'::jsonb then 0 else (select count(*) from jsonb_object_keys(reused)) end), 0)`.as('reused'),
      ])
      .where('export_id', '=', exportId)
      .executeTakeFirst()
    // Only a list's export reads its rows' matches (every other export's page keeps its one count).
    const list = row.list_id ? await listSummary(trx, row.list_id, exportId) : undefined
    const total = Number(counts?.count ?? 0)
    const pageCount = Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE))
    const page = Math.min(Math.max(1, Number.isFinite(requestedPage) ? Math.floor(requestedPage) : 1), pageCount)
    const leads = await leadPage(trx, exportId, page)
    const params = (row.search_params ?? {}) as Record<string, string | undefined>
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      createdAt: iso(row.created_at),
      completedAt: iso(row.completed_at),
      leadCount: row.lead_count,
      creditsUsed: row.total_credits_used,
      progress: Number(row.progress_percentage ?? 0),
      excluded: row.excluded,
      reusedCount: Number(counts?.reused ?? 0),
      canResume: row.can_resume,
      searchParams: {
        sector: params.sector || undefined,
        city: row.city ?? params.city ?? undefined,
        department: row.department ?? params.department ?? undefined,
        region: row.region ?? params.region ?? undefined,
        country: row.country ?? params.country ?? undefined,
        filters: storedFilters(row.search_params?.filters),
        maxLeads: storedMaxLeads(row.search_params?.maxLeads),
        onlyNew: row.search_params?.onlyNew === true || undefined,
        ...(list ? { list: { ...list, rows: Number(counts?.count ?? 0) } } : {}),
      },
      enrichmentOptions: normalizeEnrichmentOptions(row.enrichment_options),
      leads: leads.map(leadView),
      totalLeads: total,
      isDemo: leads.some((lead) => lead.source === 'demo'),
      emailVerificationUnavailable: row.email_verification_unavailable,
      page,
      pageCount,
    }
  })
}
