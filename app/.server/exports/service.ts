/**
 * Export mutations called by the routes (create, resume, add enrichment, delete). Every one runs AS THE USER
 * (withUser: role authenticated + verified claims), so row-level security decides what exists: another user's
 * export is simply `not_found`, never "forbidden" (its existence is not leaked). Each reads everything it needs
 * (plan, credits) on its own transaction, within the user's share of the pool (withUserCommand, user-commands.ts).
 *
 * The job that runs the export is queued in the SAME transaction as the row change (pg-boss `send` with a `db`
 * adapter over this transaction), so an export is never saved without its job, nor a job sent for a change that
 * rolled back. pg-boss's tables are not the user's: the transaction drops the `authenticated` role (SET LOCAL ROLE
 * NONE) just before queueing, after every user-visible write is done.
 */
import { createHash, randomUUID } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { fromKysely } from 'pg-boss'
import type { SessionUser } from '#app/.server/auth.ts'
import type { Database, EnrichmentOptionsJson, JsonObject } from '#app/.server/db.ts'
import { withUserCommand } from '#app/.server/user-commands.ts'
import { hasFilters, type SearchFilters } from '#app/domain/search-filters.ts'
import { readPlan, spendingRefusal } from '#app/.server/credits.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { checkPlan, resolveCriteria, type ResolvedCriteria } from '#app/.server/search/resolve-criteria.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { normalizeEnrichmentOptions, STATUS_COLUMN, type EnrichmentOptions, type EnrichmentType } from '#app/domain/enrichment.ts'
import { canResume, EXPORT_ERROR_STATUS, validateAddEnrichment, validateCreateExport, type ExportErrorCode } from '#app/domain/exports.ts'
import { storedSearchCriteria } from './export-run.ts'
import { refreshProgress } from './progress.ts'
import { cancelExportJobs, enqueueExport, getExportQueueBoss, liveExportJobs } from './queue.ts'
import { isUuid } from '#app/domain/ids.ts'
import type { RegistryFilters } from '#app/domain/registry-search.ts'
import type { PlanId } from '#app/domain/plans.ts'
import { registryExportCriteria } from './registry-criteria.ts'
import { env } from '#app/.server/env.server.ts'
import { LIST_MAX_ROWS } from '#app/domain/list-columns.ts'
import { withinBudget } from '#app/.server/rate-limit.ts'
import { createExportCallback } from '#app/.server/webhooks/endpoints.ts'

/** `messageKey`, when set, is more precise than the code's own message (e.g. which location level the plan requires). */
export type ExportFailure = { ok: false; status: number; code: ExportErrorCode; messageKey?: string }
export type ExportResult = { ok: true; exportId: string } | ExportFailure

export interface CreateExportArgs {
  user: SessionUser | null | undefined
  name: string
  /** As sent (resolved here, resolve-criteria.ts), or already resolved by the caller for its own use. */
  criteria: SearchCriteria | ResolvedCriteria
  enrichmentOptions: EnrichmentOptions
  /** From the form (a hidden field generated when the form renders): a double submit creates one export. */
  idempotencyKey: string
  lang: 'fr' | 'en'
  /** The user's cap on the leads (null: the export limit only). */
  maxLeads?: number | null
  filters?: SearchFilters
  /** "Only new businesses" (lead gate already_exported). */
  onlyNew?: boolean
  /** The saved search this export is a run of. */
  savedSearchId?: string
  /**
   * A transaction already acting as this user (withUser), when the export must commit with the caller's own writes
   * (a scheduled run advances its saved search's next run in the same transaction). Default: a new one.
   */
  trx?: Transaction<Database>
  /**
   * A registry-first export (issue 22 item 4): the registry's establishments for these filters, matched to the map.
   * Its place and activity then stand for `criteria` (registry-criteria.ts), which callers leave empty.
   */
  registry?: RegistryFilters
  /**
   * Where to POST the export's end (POST /api/v1/exports `webhook_url`), already vetted by the caller (the SSRF guard
   * of webhook endpoints): its callback endpoint is created with the export (webhooks/endpoints.ts).
   */
  webhookUrl?: string
  /**
   * An export of the workspace's uploaded list (issue 31): its rows are the leads, matched by the run (lists/match.ts).
   * The list stands for `criteria` (France: the registry's country); the plan's location rules, which bound an area
   * search, do not apply. The list must be the workspace's and not launched yet (checked again here, under lock).
   */
  list?: { id: string; fingerprint?: string }
  /**
   * A new-companies watch run (saved-searches/watch-run.ts): its day, its retries' due days and the SIRETs it looks
   * for on the map again, kept as search_params.watch for the search phase and the run's trigger.
   */
  watch?: JsonObject
}

/** The list was launched by another request between the caller's check and this export (it keeps the first). */
export class ListAlreadyLaunched extends Error {
  override name = 'ListAlreadyLaunched'
}

const LIST_CRITERIA: SearchCriteria = { sector: '', country: 'France', countryCode: 'FR', region: '', department: '', city: '' }

/** A session whose verified claims name the same user (RLS keys on the claims, rows on the id). */
function signedIn(user: SessionUser | null | undefined): user is SessionUser {
  return Boolean(user && typeof user.id === 'string' && isUuid(user.id) && user.claims?.sub === user.id && user.workspace)
}

function fail(code: ExportErrorCode): ExportFailure {
  return { ok: false, status: EXPORT_ERROR_STATUS[code], code }
}

/** A refusal unless the member may spend a credit (the pool, their monthly cap). */
async function spendRefusal(trx: Transaction<Database>, user: SessionUser): Promise<ExportFailure | null> {
  const refusal = await spendingRefusal(trx, user)
  return refusal ? fail(refusal) : null
}

/** The location resolved (names and code agree, every level exists: resolve-criteria.ts), else a 400 naming the field. */
function resolveSent(sent: SearchCriteria | ResolvedCriteria): { ok: true; criteria: ResolvedCriteria } | ExportFailure {
  const resolution = 'location' in sent ? { ok: true as const, criteria: sent } : resolveCriteria(sent)
  return resolution.ok ? resolution : { ...fail('invalid_location'), messageKey: resolution.messageKey }
}

/** A registry-first export's place and activity as a search (registry-criteria.ts), else a 400 on the place. */
function registrySearch(filters: RegistryFilters): { ok: true; criteria: ResolvedCriteria } | ExportFailure {
  const criteria = registryExportCriteria(filters)
  return criteria ? { ok: true, criteria } : { ...fail('invalid_location'), messageKey: 'companies.errors.unknownPlace' }
}

/**
 * The plan's location rules (SPEC §5) on the resolved search, whatever the client sent, as the preview checks them.
 * The plan is read in the command's own transaction: a command holds one pooled connection, never a second one while
 * it holds a row lock (20 parallel resumes used to take the whole pool that way, issue 28). A failed read throws (503),
 * never the free trial's rules.
 */
function planRefusal(plan: PlanId, criteria: ResolvedCriteria): ExportFailure | null {
  const check = checkPlan(criteria, plan)
  if (check.ok || check.reason !== 'plan') return null
  return { ...fail('plan_restricted'), messageKey: check.messageKey }
}

/** A stored search, resolved again like any request, then held to the user's plan of today. */
function storedSearch(plan: PlanId, exp: OwnedExport): { ok: true; criteria: ResolvedCriteria } | ExportFailure {
  const search = resolveSent(storedSearchCriteria(exp))
  if (!search.ok) return search
  // A list's export is no area search: the location rules never applied to it (createExport).
  if (exp.search_params?.list) return search
  return planRefusal(plan, search.criteria) ?? search
}

/** Leaves the user role for the rest of this transaction (queue tables are not the user's). Call last. */
async function asService(trx: Transaction<Database>): Promise<void> {
  await sql`set local role none`.execute(trx)
}

/** The cap and the filters as search_params keeps them: only when the user set them. */
function storedSearchLimits({ maxLeads, filters }: Pick<CreateExportArgs, 'maxLeads' | 'filters'>): { maxLeads?: number; filters?: JsonObject } {
  return {
    ...(maxLeads && maxLeads > 0 ? { maxLeads: Math.floor(maxLeads) } : {}),
    ...(filters && hasFilters(filters) ? { filters: { ...filters } } : {}),
  }
}

/** An idempotency key names one export for this long; after it, the key is free for a new one. */
const IDEMPOTENCY_WINDOW_HOURS = 24

/** The command as understood (resolved location, validated name and options): a reused key must carry the same. */
function fingerprintOf(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url')
}

function clean(value: unknown, max = 200): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : ''
}

/** A reused key: its export when the command is the same, else a conflict (a key names one command). */
function replayOf(existing: { id: string; idempotency_fingerprint: string | null }, fingerprint: string) {
  return existing.idempotency_fingerprint && existing.idempotency_fingerprint !== fingerprint
    ? fail('idempotency_conflict')
    : { ok: true as const, exportId: existing.id, duplicate: true }
}

/** The command's name, options and lead cap checked (domain/exports.ts), else the first refusal. */
function validateCommand(args: CreateExportArgs, criteria: ResolvedCriteria) {
  const { country = '', countryCode, region = '', department = '', city = '' } = criteria.location
  const validation = validateCreateExport({
    name: args.name ?? '',
    criteria: { sector: criteria.sector, country, region, department, city, ...(countryCode ? { countryCode } : {}) },
    // The registry data is what a registry-first export is for: always delivered (free: search-phase.ts).
    enrichmentOptions: args.registry ? { ...args.enrichmentOptions, admin_fr_info: true } : args.enrichmentOptions,
  })
  if (!validation.ok) return fail(validation.code)
  // A list's export holds its rows (up to LIST_MAX_ROWS); an area search's, EXPORT_MAX_LEADS.
  const cap = args.list ? LIST_MAX_ROWS : env.EXPORT_MAX_LEADS
  if (args.maxLeads !== undefined && args.maxLeads !== null && !(Number.isInteger(args.maxLeads) && args.maxLeads >= 1 && args.maxLeads <= cap)) {
    return fail('max_leads_invalid')
  }
  return validation
}

export async function createExport(args: CreateExportArgs): Promise<{ ok: true; exportId: string; duplicate: boolean } | ExportFailure> {
  const { user } = args
  if (!signedIn(user)) return fail('unauthenticated')
  if (!can(user.workspace.role, 'export')) return fail('forbidden_role')
  const search = args.registry ? registrySearch(args.registry) : resolveSent(args.list ? LIST_CRITERIA : (args.criteria ?? { sector: '', country: '', region: '', department: '', city: '' }))
  if (!search.ok) return search
  const { criteria } = search
  const validation = validateCommand(args, criteria)
  if (!validation.ok) return validation
  const idempotencyKey = clean(args.idempotencyKey, 200) || randomUUID()
  const lang = args.lang === 'en' ? 'en' : 'fr'
  const limits = { ...storedSearchLimits(args), ...(args.registry ? { registry: { ...args.registry } as JsonObject } : {}), ...(args.list ? { list: { id: args.list.id } } : {}), ...(args.watch ? { watch: args.watch } : {}) }
  const webhookUrl = args.webhookUrl || undefined
  // The callback URL is part of the command only when sent: the fingerprints of exports without one stay as they were.
  // A list is the same command when its content is (a retry uploads it again, as a new list: lists/commands.ts).
  const commandLimits = args.list ? { ...limits, list: { content: args.list.fingerprint ?? args.list.id } } : limits
  const command = { name: validation.name, location: criteria.location, sector: criteria.sector, options: validation.enrichmentOptions, limits: commandLimits, onlyNew: Boolean(args.onlyNew) }
  const fingerprint = fingerprintOf(webhookUrl ? { ...command, webhookUrl } : command)

  const { country = '', countryCode, region = '', department = '', city = '' } = criteria.location
  const asUser = <T>(fn: (trx: Transaction<Database>) => Promise<T>) => (args.trx ? fn(args.trx) : withUserCommand(user, fn))
  return asUser(async (trx) => {
    const refusal = args.list ? null : planRefusal(await readPlan(trx, user.workspace.id), criteria)
    if (refusal) return refusal
    const findExisting = () =>
      trx
        .selectFrom('exports')
        .select(['id', 'idempotency_fingerprint', sql<boolean>`created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`.as('expired')])
        .where('user_id', '=', user.workspace.id)
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst()
    const existing = await findExisting()
    // Past its window the key names nothing: the old export keeps its data, the key goes to the new one.
    const replay = (found: { id: string; idempotency_fingerprint: string | null }) => replayOf(found, fingerprint)
    if (existing?.expired) await trx.updateTable('exports').set({ idempotency_key: null }).where('id', '=', existing.id).execute()
    else if (existing) return replay(existing)
    const noCredits = await spendRefusal(trx, user)
    if (noCredits) return noCredits

    const inserted = await trx
      .insertInto('exports')
      .values({
        user_id: user.workspace.id,
        created_by: user.id,
        name: validation.name,
        status: 'processing',
        search_status: 'pending',
        enrichment_status: 'pending',
        lead_count: 0,
        total_credits_used: 0,
        search_params: { sector: criteria.sector, city, department, region, country, ...(countryCode ? { countryCode } : {}), lang, ...limits, ...(args.onlyNew ? { onlyNew: true } : {}) },
        enrichment_options: { ...validation.enrichmentOptions },
        bbox: null,
        polygon: null,
        country: country || null,
        region: region || null,
        department: department || null,
        city: city || null,
        business_types: criteria.sector ? [criteria.sector] : [],
        idempotency_key: idempotencyKey,
        idempotency_fingerprint: fingerprint,
        progress_percentage: 0,
        saved_search_id: args.savedSearchId ?? null,
        webhook_url: webhookUrl ?? null,
        list_id: args.list?.id ?? null,
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) {
      // A concurrent submit with the same key committed first (we waited for it on the unique index).
      const winner = await findExisting()
      if (winner) return replay(winner)
      throw new Error('createExport: idempotency conflict without a visible export')
    }
    await asService(trx)
    if (args.list) await claimList(trx, user.workspace.id, args.list.id, inserted.id)
    if (webhookUrl) await createExportCallback(trx, { userId: user.workspace.id, exportId: inserted.id, url: webhookUrl })
    await enqueueExport(fromKysely(trx), { exportId: inserted.id, userId: user.workspace.id })
    return { ok: true as const, exportId: inserted.id, duplicate: false }
  })
}

/** The list becomes this export's (once: a second launch finds it taken and rolls back). */
async function claimList(trx: Transaction<Database>, workspaceId: string, listId: string, exportId: string): Promise<void> {
  const claimed = await trx
    .updateTable('lists')
    .set({ export_id: exportId, updated_at: sql`now()` })
    .where('id', '=', listId)
    .where('user_id', '=', workspaceId)
    .where('export_id', 'is', null)
    .where('mapping', 'is not', null)
    .executeTakeFirst()
  if (Number(claimed.numUpdatedRows) !== 1) throw new ListAlreadyLaunched()
}

/**
 * createExport as the forms run it: within the user's export-creation budget (RATE_LIMIT_EXPORT_CREATE), a replay of a
 * known key answered even past it, a refusal giving its point back. (The API meters the same limit per operation.)
 */
export async function createExportWithinBudget(args: CreateExportArgs & { user: SessionUser }) {
  return withinBudget('exportCreate', args.user.id, () => createExport(args), {
    replay: await holdsIdempotencyKey(args.user, args.idempotencyKey ?? ''),
    made: (result) => result.ok && !result.duplicate,
  })
}

interface OwnedExport {
  id: string
  status: string
  can_resume: boolean
  search_status: string | null
  enrichment_options: EnrichmentOptionsJson | null
  search_params: Record<string, unknown> | null
  country: string | null
  region: string | null
  department: string | null
  city: string | null
}

/** The user's export, locked for this transaction; undefined when missing or not theirs (RLS). */
async function lockOwnExport(trx: Transaction<Database>, exportId: string): Promise<OwnedExport | undefined> {
  if (!isUuid(exportId)) return undefined
  return (await trx
    .selectFrom('exports')
    .select(['id', 'status', 'can_resume', 'search_status', 'enrichment_options', 'search_params', 'country', 'region', 'department', 'city'])
    .where('id', '=', exportId)
    .forUpdate()
    .executeTakeFirst()) as OwnedExport | undefined
}

export async function resumeExport(args: { user: SessionUser | null | undefined; exportId: string }): Promise<ExportResult> {
  const { user } = args
  if (!signedIn(user)) return fail('unauthenticated')
  if (!can(user.workspace.role, 'export')) return fail('forbidden_role')
  return withUserCommand(user, async (trx) => {
    // Read before the lock: a concurrent command on the same export waits for as short a time as can be.
    const plan = await readPlan(trx, user.workspace.id)
    const exp = await lockOwnExport(trx, args.exportId)
    if (!exp) return fail('not_found')
    if (!canResume(exp)) return fail('not_resumable')
    const search = storedSearch(plan, exp)
    if (!search.ok) return search
    const noCredits = await spendRefusal(trx, user)
    if (noCredits) return noCredits
    await trx
      .updateTable('exports')
      .set({
        status: 'processing',
        can_resume: false,
        enrichment_status: 'pending',
        search_status: exp.search_status === 'completed' ? 'completed' : 'pending',
        enrichment_status_details: null,
        completed_at: null,
      })
      .where('id', '=', exp.id)
      .execute()
    await asService(trx)
    await enqueueExport(fromKysely(trx), { exportId: exp.id, userId: user.workspace.id })
    return { ok: true as const, exportId: exp.id }
  })
}

export async function addEnrichment(args: { user: SessionUser | null | undefined; exportId: string; options: EnrichmentType[] }): Promise<ExportResult & { added?: EnrichmentType[] }> {
  const { user } = args
  if (!signedIn(user)) return fail('unauthenticated')
  if (!can(user.workspace.role, 'export')) return fail('forbidden_role')
  if (!Array.isArray(args.options) || args.options.length === 0) return fail('add_enrichment_none')
  return withUserCommand(user, async (trx) => {
    const plan = await readPlan(trx, user.workspace.id)
    const exp = await lockOwnExport(trx, args.exportId)
    if (!exp) return fail('not_found')
    if (exp.status !== 'completed') return fail('not_completed')
    const search = storedSearch(plan, exp)
    if (!search.ok) return search
    const already = normalizeEnrichmentOptions(exp.enrichment_options)
    const validation = validateAddEnrichment(args.options, already, { france: search.criteria.france })
    if (!validation.ok) return fail(validation.code)
    const noCredits = await spendRefusal(trx, user)
    if (noCredits) return noCredits

    // not_required -> pending for the new types, on every lead of the export (one statement). A list's row nothing
    // matched has nothing to enrich (not_found, free); a website the row gave is not found again for a credit.
    const sets = validation.added.map((type) => {
      const column = STATUS_COLUMN[type]
      const givenSite = type === 'website' ? `when list_match ->> 'givenWebsite' = 'true' then 'not_required'` : ''
      return sql.raw(`${column} = case when ${column} <> 'not_required' then ${column} when list_match ->> 'status' <> 'matched' then 'not_found' ${givenSite} else 'pending' end`)
    })
    await sql`update public.export_leads set ${sql.join(sets, sql`, `)} where export_id = ${exp.id}`.execute(trx)
    const merged: EnrichmentOptionsJson = { ...(exp.enrichment_options ?? {}) }
    for (const type of validation.added) merged[type] = true
    await trx
      .updateTable('exports')
      .set({
        enrichment_options: merged,
        status: 'processing',
        enrichment_status: 'pending',
        enrichment_status_details: null,
        completed_at: null,
        can_resume: false,
      })
      .where('id', '=', exp.id)
      .execute()
    await refreshProgress(trx, exp.id, { phase: 'enrichment' })
    await asService(trx)
    await enqueueExport(fromKysely(trx), { exportId: exp.id, userId: user.workspace.id })
    return { ok: true as const, exportId: exp.id, added: validation.added }
  })
}

/**
 * POST /api/exports/queue (SPEC §7): makes sure a running export has a job. Idempotent: creation, resume and add
 * enrichment already queue their job in their own transaction, so this normally finds one and does nothing; it
 * re-queues only a processing export whose job is gone (e.g. deleted by hand from the queue). Finished exports are
 * left alone (ok, nothing queued).
 */
export async function queueExport(args: { user: SessionUser | null | undefined; exportId: string }): Promise<ExportResult & { queued?: boolean }> {
  const { user } = args
  if (!signedIn(user)) return fail('unauthenticated')
  if (!can(user.workspace.role, 'export')) return fail('forbidden_role')
  return withUserCommand(user, async (trx) => {
    const exp = await lockOwnExport(trx, args.exportId)
    if (!exp) return fail('not_found')
    if (exp.status !== 'processing' && exp.status !== 'pending') return { ok: true as const, exportId: exp.id, queued: false }
    await asService(trx)
    const db = fromKysely(trx)
    const boss = await getExportQueueBoss()
    // A run or any of its batches queued or running: the export has its job.
    if ((await liveExportJobs(db, exp.id)).length > 0) return { ok: true as const, exportId: exp.id, queued: false }
    const jobId = await enqueueExport(db, { exportId: exp.id, userId: user.workspace.id }, boss)
    return { ok: true as const, exportId: exp.id, queued: jobId !== null }
  })
}

/**
 * Deletes the export (its export_leads go by cascade) and the leads it leaves unlinked: leads are per user and
 * shared by that user's exports, so a lead another export still lists stays. Running jobs are cancelled in the same
 * transaction; a worker mid-run notices (its next write finds the export gone) and stops without error.
 * The credit ledger keeps its rows (no foreign keys): billing history survives the deletion.
 */
export async function deleteExport(args: { user: SessionUser | null | undefined; exportId: string }): Promise<ExportResult> {
  const { user } = args
  if (!signedIn(user)) return fail('unauthenticated')
  if (!can(user.workspace.role, 'export')) return fail('forbidden_role')
  return withUserCommand(user, async (trx) => {
    // Lock order exports -> export_leads -> leads, the same as the worker's writes: no deadlock with a running export.
    const exp = await lockOwnExport(trx, args.exportId)
    if (!exp) return fail('not_found')
    const links = await trx.selectFrom('export_leads').select('lead_id').where('export_id', '=', exp.id).execute()
    await trx.deleteFrom('exports').where('id', '=', exp.id).execute()
    const leadIds = links.map((link) => link.lead_id)
    for (let start = 0; start < leadIds.length; start += 5000) {
      const chunk = leadIds.slice(start, start + 5000)
      // Lock first, then check with a fresh snapshot: a link another export adds concurrently is either committed
      // before our check (the lead stays) or waits for us and then re-creates the lead.
      await sql`select id from public.leads where id = any(${chunk}::uuid[]) order by id for update`.execute(trx)
      await sql`
        delete from public.leads l
         where l.id = any(${chunk}::uuid[])
           and not exists (select 1 from public.export_leads el where el.lead_id = l.id)`.execute(trx)
    }
    await asService(trx)
    await cancelExportJobs(exp.id, { db: fromKysely(trx) })
    return { ok: true as const, exportId: exp.id }
  })
}

/**
 * Whether `idempotencyKey` names one of the user's exports within its window: a request with it replays that export
 * (or conflicts with it) and creates nothing, so it is answered even past the creation limit.
 */
export async function holdsIdempotencyKey(user: SessionUser, idempotencyKey: string): Promise<boolean> {
  const key = clean(idempotencyKey, 200)
  if (!key) return false
  const row = await withUserCommand(user, (trx) =>
    trx
      .selectFrom('exports')
      .select('id')
      .where('user_id', '=', user.workspace.id)
      .where('idempotency_key', '=', key)
      .where(sql<boolean>`created_at >= now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`)
      .executeTakeFirst(),
  )
  return Boolean(row)
}
