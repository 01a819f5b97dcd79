/**
 * "Enrich your own list", the commands every door runs (the /lists pages, POST /api/v1/enrichments): upload a file,
 * confirm its mapping (which matches a sample), launch its export. Each resolves the member server-side, checks their
 * role, and refuses bad input with a code the door localizes; the export itself is createExport's (plan, credits,
 * idempotency, the queue), so a list pays and is limited like any export.
 */
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb } from '#app/.server/db.ts'
import { withinBudget, type Refusal } from '#app/.server/rate-limit.ts'
import { env } from '#app/.server/env.server.ts'
import { paidPositions } from '#app/.server/exports/paid-positions.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { doNotContactGate } from '#app/.server/exports/exclusion-gates.ts'
import type { ExportRow } from '#app/.server/exports/export-run.ts'
import { getLeadSource, type LeadSource } from '#app/.server/sources/index.ts'
import { createHash } from 'node:crypto'
import pMap from 'p-map'
import { can } from '#app/domain/workspace-roles.ts'
import { createExport, ListAlreadyLaunched, type ExportFailure } from '#app/.server/exports/service.ts'
import type { EnrichmentOptions } from '#app/domain/enrichment.ts'
import { ListMappingSchema, type ListColumnKind } from '#app/domain/list-columns.ts'
import { emptyKindCounts, rowMatchKind, samplePositions, type ListSampleSummary } from '#app/domain/list-match.ts'
import { isListFileRefusal, parseListFile, type ListFileRefusal, type ParsedList } from './parse-file.ts'
import { readListRows, type ListReading } from './list-rows.ts'
import { createListMatcher, ListMatchFailed, type ListCandidate } from './match.ts'
import { insertList, readList, readListCells, saveListMapping, type StoredList } from './store.ts'
import type { SearchFilters } from '#app/domain/search-filters.ts'

export type ListCommandError = 'unauthenticated' | 'forbidden_role' | 'not_found' | 'already_launched' | 'mapping_invalid'

type Failure = { ok: false; code: ListCommandError; messageKey?: string }

/** The HTTP status of each refusal, for every door (pages, API). */
export const LIST_COMMAND_STATUS: Record<ListCommandError, number> = { unauthenticated: 401, forbidden_role: 403, not_found: 404, already_launched: 409, mapping_invalid: 400 }

function signedIn(user: SessionUser | null | undefined): user is SessionUser {
  return Boolean(user?.id && user.workspace)
}

function roleRefusal(user: SessionUser | null | undefined): Failure | null {
  if (!signedIn(user)) return { ok: false, code: 'unauthenticated' }
  return can(user.workspace.role, 'export') ? null : { ok: false, code: 'forbidden_role' }
}

/** A file's bytes to a stored list, or why the whole file is refused (nothing is stored then). */
export async function uploadList(args: { user: SessionUser | null | undefined; fileName: string; bytes: Uint8Array }): Promise<{ ok: true; listId: string; parsed: ParsedList } | Failure | { ok: false; code: 'file_refused'; refusal: ListFileRefusal }> {
  const refusal = roleRefusal(args.user)
  if (refusal) return refusal
  const parsed = await parseListFile(args.bytes, args.fileName)
  if (isListFileRefusal(parsed)) return { ok: false, code: 'file_refused', refusal: parsed }
  const listId = await insertList(args.user as SessionUser, args.fileName, parsed)
  return { ok: true, listId, parsed }
}

/** Rows given as JSON (the API): objects of one shape become a table, its headers their keys in first-seen order. */
function tableOfJsonRows(rows: ReadonlyArray<Record<string, string | number | null>>): Omit<ParsedList, 'format'> & { format: 'json' } {
  const headers: string[] = []
  for (const row of rows) for (const key of Object.keys(row)) if (!headers.includes(key)) headers.push(key)
  const cells = rows.map((row) => headers.map((header) => (row[header] === null || row[header] === undefined ? '' : String(row[header]))))
  return { headers, rows: cells, lines: cells.map((_, i) => i + 1), format: 'json', duplicates: 0, emptyColumns: [] }
}

/** JSON rows (the API) as a stored list: its id and the headers its table took from the rows' keys. */
export async function storeJsonList(user: SessionUser, rows: ReadonlyArray<Record<string, string | number | null>>, name: string): Promise<{ listId: string; headers: string[] }> {
  const table = tableOfJsonRows(rows)
  return { listId: await insertList(user, name, table), headers: table.headers }
}


/** What the run and the sample need: the registry through the enrichers, the map source. */
export interface ListMatchDeps {
  enrichers: Pick<Enrichers, 'lookupRegistry' | 'reachSite'>
  source: LeadSource
}

let defaultDeps: ListMatchDeps | undefined
function matchDeps(): ListMatchDeps {
  defaultDeps ??= { enrichers: createDefaultEnrichers(), source: getLeadSource() }
  return defaultDeps
}

/** Sample rows matched at once: the registry's budget is what bounds them. */
const SAMPLE_CONCURRENCY = 4
/** The sample answers within this (the public registry takes 7 lookups a second, the map a few seconds a place). */
const SAMPLE_DEADLINE_MS = 25_000
/** Places the sample lists on the map: beyond, a name the registry does not know counts as not found in the sample. */
const SAMPLE_MAP_PLACES = 10

/**
 * The match of a sample of the usable rows, spread over the file: counts by kind, rows the workspace already has,
 * rows the do-not-contact list leaves out (not matched: they will not be enriched).
 */
async function matchSample(user: SessionUser, listId: string, reading: ListReading, columns: readonly ListColumnKind[], deps: ListMatchDeps, lang: 'fr' | 'en'): Promise<ListSampleSummary> {
  const rowsByKind = emptyKindCounts(() => 0)
  for (const row of reading.rows) rowsByKind[rowMatchKind(row)]++
  const positions = samplePositions(reading.rows.length)
  // The member waits for the sample: past its deadline, what is not decided counts as undecided (said on the page).
  const deadline = AbortSignal.timeout(SAMPLE_DEADLINE_MS)
  const matcher = createListMatcher({ ...deps, listId, websiteColumn: columns.indexOf('website'), lang, signal: deadline, maxMapPlaces: SAMPLE_MAP_PLACES })
  const outcomes = await pMap(positions, async (position) => {
    try {
      return await matcher.match(reading.rows[position]!)
    } catch (error) {
      if (error instanceof ListMatchFailed || deadline.aborted) return null
      throw error
    }
  }, { concurrency: SAMPLE_CONCURRENCY })
  const matched = outcomes.filter((outcome): outcome is ListCandidate => outcome?.listMatch.status === 'matched')
  const gate = await doNotContactGate(adminDb(), { user_id: user.workspace.id } as ExportRow)
  const listed = gate ? await gate.judge(matched) : new Map()
  const kept = matched.filter((candidate) => !listed.has(candidate))
  const summary: ListSampleSummary = {
    sampled: 0,
    matched: 0,
    byKind: emptyKindCounts(() => ({ sampled: 0, matched: 0 })),
    rowsByKind,
    alreadyYours: await alreadyYours(user, kept),
    paidByType: await paidByType(user, kept),
    failed: outcomes.filter((outcome) => outcome === null).length,
    exact: positions.length === reading.rows.length && outcomes.every((outcome) => outcome !== null),
  }
  outcomes.forEach((outcome, i) => {
    if (!outcome) return
    const kind = rowMatchKind(reading.rows[positions[i]!]!)
    const hit = kept.includes(outcome)
    summary.sampled++
    summary.byKind[kind].sampled++
    if (hit) {
      summary.matched++
      summary.byKind[kind].matched++
    }
  })
  return summary
}

/** Never pay twice, before the launch: how many matched sample rows have each enrichment already paid (free again). */
async function paidByType(user: SessionUser, candidates: readonly ListCandidate[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const bySource = Map.groupBy(candidates, (candidate) => candidate.source)
  for (const [source, group] of bySource) {
    const paid = await paidPositions(user, source, group.map((candidate) => candidate.placeId), env.ENRICHMENT_REUSE_DAYS)
    for (const [option, positions] of Object.entries(paid)) counts[option] = (counts[option] ?? 0) + positions.length
  }
  return counts
}

/** Matched businesses the workspace already has as leads (their paid enrichments are free again). */
async function alreadyYours(user: SessionUser, candidates: readonly ListCandidate[]): Promise<number> {
  if (candidates.length === 0) return 0
  const rows = await adminDb()
    .selectFrom('leads')
    .select(['source', 'place_id'])
    .where('user_id', '=', user.workspace.id)
    .where('place_id', 'in', candidates.map((candidate) => candidate.placeId))
    .execute()
  const known = new Set(rows.map((row) => `${row.source}\u0000${row.place_id}`))
  return candidates.filter((candidate) => known.has(`${candidate.source}\u0000${candidate.placeId}`)).length
}

/** The list read through its mapping, every row (the confirm page's counts, the run's input). */
export async function readMappedList(listId: string, columns: readonly ListColumnKind[], db = adminDb()): Promise<ListReading> {
  return readListRows(await readListCells(db, listId), { columns: [...columns] })
}

/**
 * Confirms the mapping of the member's list and matches a sample of it. The mapping is ListMappingSchema's (the
 * form's and the API's), one kind per column of the file.
 */
export async function confirmListMapping(args: {
  user: SessionUser | null | undefined
  listId: string
  columns: unknown
  lang: 'fr' | 'en'
  deps?: ListMatchDeps
  sample?: boolean
}): Promise<{ ok: true; list: StoredList; reading: ListReading; table: { rows: string[][]; lines: number[] } } | Failure | { ok: false; code: 'rate_limited'; refusal: Refusal }> {
  const refusal = roleRefusal(args.user)
  if (refusal) return refusal
  const user = args.user as SessionUser
  const list = await readList(user, args.listId)
  if (!list) return { ok: false, code: 'not_found' }
  if (list.exportId) return { ok: false, code: 'already_launched' }
  const parsed = ListMappingSchema.safeParse({ columns: args.columns })
  if (!parsed.success) return { ok: false, code: 'mapping_invalid', messageKey: parsed.error.issues[0]?.message }
  if (parsed.data.columns.length !== list.headers.length) return { ok: false, code: 'mapping_invalid', messageKey: 'lists.errors.mappingRequired' }
  const table = await readListCells(adminDb(), list.id)
  const reading = readListRows(table, { columns: parsed.data.columns })
  if (args.sample === false) {
    const sample = unsampled(reading)
    await saveListMapping(user, list.id, parsed.data, sample)
    return { ok: true, list: { ...list, mapping: parsed.data, sample }, reading, table }
  }
  // A sample asks the registry (and the map): it takes from the member's list budget, as an upload does.
  const budgeted = await withinBudget('listUpload', user.id, () => matchSample(user, list.id, reading, parsed.data.columns, args.deps ?? matchDeps(), args.lang), { made: () => true })
  if (budgeted.refused) return { ok: false, code: 'rate_limited', refusal: budgeted.refused }
  await saveListMapping(user, list.id, parsed.data, budgeted.result)
  return { ok: true, list: { ...list, mapping: parsed.data, sample: budgeted.result }, reading, table }
}

/** The API launches without a sample: the figures are the run's. */
function unsampled(reading: ListReading): ListSampleSummary {
  const rowsByKind = emptyKindCounts(() => 0)
  for (const row of reading.rows) rowsByKind[rowMatchKind(row)]++
  return { sampled: 0, matched: 0, byKind: emptyKindCounts(() => ({ sampled: 0, matched: 0 })), rowsByKind, alreadyYours: 0, paidByType: {}, failed: 0, exact: false }
}

export interface LaunchListArgs {
  user: SessionUser | null | undefined
  listId: string
  name: string
  enrichmentOptions: EnrichmentOptions
  idempotencyKey: string
  lang: 'fr' | 'en'
  maxLeads?: number | null
  onlyNew?: boolean
  /** The risk shield's filters (the others are the map's: a list has none). */
  filters?: SearchFilters
  webhookUrl?: string
  /** What the list holds (listFingerprint): an Idempotency-Key replays the export of the same content. */
  fingerprint?: string
}

/**
 * The list's export: createExport's command (plan, credits, idempotency, queue) with the list as its source. A key
 * already used for this list's export replays it, whatever the list's state now.
 */
export async function launchList(args: LaunchListArgs): Promise<{ ok: true; exportId: string; duplicate: boolean } | Failure | ExportFailure> {
  const refusal = roleRefusal(args.user)
  if (refusal) return refusal
  const user = args.user as SessionUser
  const list = await readList(user, args.listId)
  if (!list) return { ok: false, code: 'not_found' }
  if (!list.mapping) return { ok: false, code: 'mapping_invalid', messageKey: 'lists.errors.mappingRequired' }
  const command = () =>
    createExport({ user, name: args.name, criteria: { sector: '', country: '', region: '', department: '', city: '' }, enrichmentOptions: args.enrichmentOptions, idempotencyKey: args.idempotencyKey, lang: args.lang, maxLeads: args.maxLeads, onlyNew: args.onlyNew, filters: args.filters, webhookUrl: args.webhookUrl, list: { id: list.id, ...(args.fingerprint ? { fingerprint: args.fingerprint } : {}) } })
  try {
    return await command()
  } catch (error) {
    if (error instanceof ListAlreadyLaunched) return { ok: false, code: 'already_launched' }
    throw error
  }
}

/** What a list holds and how it is read: its table and its mapping, as one digest. */
export function listFingerprint(table: { headers: readonly string[]; rows: readonly (readonly string[])[] }, columns: readonly ListColumnKind[]): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify([table.headers, columns]))
  for (const row of table.rows) hash.update(JSON.stringify(row))
  return hash.digest('base64url')
}
