// "Enrich your own list" at scale (issue 31 item 6). A BENCH_LIST_ROWS-row CSV (default 10 000) of real demo
// businesses of ten large French cities and nine categories, as a CRM export would hold them: a third by SIRET (the
// registry's, looked up with the category's NAF codes as tests/integration/list-enrichment.test.ts does), a third by
// website, a third by name + postcode + city, and 2 % of names neither the registry nor the map knows (so the match
// rate is not 100 % by construction). The kinds are interleaved, so any first rows of the file mix them.
// Measured: parsing the bytes (parseListFile), the upload (uploadList: parse + store), the mapping + sample
// (confirmListMapping), the match of every row (createListMatcher, 8 rows at once as a list's export matches them) with
// its rate per kind; then end to end the list's export (launchList + processExport) against map-first exports of as
// many leads in the same run, same enrichments (phone, email, admin_fr_info), same leads in flight. RSS sampled every
// 100 ms per phase. Figures only, no timed assertion: the bench fails only when a step does (refused, not completed).
// The demo registry and websites run in child processes (loopback), so the CPU and RSS figures are the pipeline's. The
// registry budget is the deployment's for a local registry (100 requests/s unless REGISTRY_REQUESTS_PER_SECOND): the
// match mostly waits on it. A demo map search finds at most 400 businesses, so the map-first baseline is several
// exports (one department and category each) run one after another and summed. The list and the baseline have an
// account each and run with reuseDays 0, so neither reuses the other's results; an untimed warm-up export runs first.
//   npx tsx bench/lists.ts   (BENCH_LIST_ROWS, default 10000; BENCH_LIST_E2E_ROWS, default 2000: the end-to-end part;
//                             BENCH_CONCURRENCY, default EXPORT_CONCURRENCY; LATENCY_MS of the demo sites, default 50)
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import pMap from 'p-map'
import pg from 'pg'
import { benchAccount } from './lib/accounts.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { env, parseEnv } from '#app/.server/env.server.ts'
import { confirmListMapping, launchList, readMappedList, uploadList } from '#app/.server/lists/commands.ts'
import type { ListReading } from '#app/.server/lists/list-rows.ts'
import { createListMatcher, ListMatchFailed, type ListCandidate } from '#app/.server/lists/match.ts'
import { isListFileRefusal, parseListFile } from '#app/.server/lists/parse-file.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { Rng } from '#app/.server/sources/demo/prng.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { guessColumnKinds, type ListColumnKind } from '#app/domain/list-columns.ts'
import { estimateMatches, LIST_MATCH_KINDS, rowMatchKind, type ListSampleSummary } from '#app/domain/list-match.ts'
import { routeRegistryRequest } from '#server/demo/registry.ts'
import { startBenchDatabase } from './lib/database.ts'
import { startDemoProcess } from './lib/demo-process.ts'
import { MB, startRssSampler } from './lib/rss.ts'
import { printTable } from './lib/table.ts'
import { timed } from './lib/timing.ts'

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 10_000)
const E2E_ROWS = Math.min(ROWS, Number(process.env.BENCH_LIST_E2E_ROWS ?? 2000))
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? env.EXPORT_CONCURRENCY)
/** Rows matched at once, as a list's export matches them (LIST_MATCH_CONCURRENCY in exports/list-source.ts). */
const MATCH_CONCURRENCY = 8
const UNKNOWN_SHARE = 0.02
const OPTIONS = { ...NO_ENRICHMENT, phone: true, email: true, admin_fr_info: true }
const HEADERS = ['Raison sociale', 'SIRET', 'Site web', 'Code postal', 'Ville', 'Notes internes']
const EXPECTED_COLUMNS: ListColumnKind[] = ['name', 'siret', 'website', 'postal_code', 'city', 'ignore']
const CITIES = [
  { region: 'Île-de-France', department: 'Paris', city: 'Paris' },
  { region: "Provence-Alpes-Côte d'Azur", department: 'Bouches-du-Rhône', city: 'Marseille' },
  { region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
  { region: 'Occitanie', department: 'Haute-Garonne', city: 'Toulouse' },
  { region: "Provence-Alpes-Côte d'Azur", department: 'Alpes-Maritimes', city: 'Nice' },
  { region: 'Pays de la Loire', department: 'Loire-Atlantique', city: 'Nantes' },
  { region: 'Occitanie', department: 'Hérault', city: 'Montpellier' },
  { region: 'Grand Est', department: 'Bas-Rhin', city: 'Strasbourg' },
  { region: 'Nouvelle-Aquitaine', department: 'Gironde', city: 'Bordeaux' },
  { region: 'Hauts-de-France', department: 'Nord', city: 'Lille' },
]
const CATEGORIES = ['restaurant', 'hairdresser', 'bakery', 'pharmacy', 'dentist', 'plumber', 'florist', 'butcher', 'cafe']
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const percent = (part: number, whole: number) => (whole ? `${round((100 * part) / whole)} %` : '-')

type RowKind = 'siret' | 'domain' | 'name' | 'unknown'
interface Pooled {
  business: Business
  naf: string[]
}

console.log(`Enrich your own list: ${ROWS} rows (end to end: ${E2E_ROWS}), ${CONCURRENCY} leads in flight; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`)
const database = await startBenchDatabase('leadatlas-bench-lists-')
const sites = await startDemoProcess('server/demo/websites.ts', { LATENCY_MS: process.env.LATENCY_MS ?? '50' })
const registry = await startDemoProcess('server/demo/registry.ts', {})
process.env.DATABASE_URL = database.url
const admin = new pg.Pool({ connectionString: database.superuserUrl, max: 2 })
const engine = createDefaultEnrichers(
  parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}`, REGISTRY_REQUESTS_PER_SECOND: process.env.REGISTRY_REQUESTS_PER_SECOND }),
)
/** What each phase asked of the registry and the sites (a lookup by name with NAF codes may be two requests). */
const counts = { lookups: 0, probes: 0, crawls: 0 }
const enrichers: Enrichers = {
  ...engine,
  lookupRegistry: (...args) => (counts.lookups++, engine.lookupRegistry(...args)),
  crawl: (...args) => (counts.crawls++, engine.crawl(...args)),
  reachSite: (...args) => (counts.probes++, engine.reachSite!(...args)),
}
const source = createDemoSource({ websitesBaseUrl: sites.url })

const newUser = () => benchAccount(admin)

// ---------------------------------------------------------------------------------------------------------------
// Phases: time, CPU, RSS and what they asked of the registry and the sites

interface PhaseFigures {
  label: string
  rows: number
  seconds: number
  cpuSeconds: number
  startMB: number
  peakMB: number
  lookups: number
  probes: number
}
const phases: PhaseFigures[] = []

async function phase<T>(label: string, rows: number, fn: () => Promise<T> | T): Promise<T> {
  const before = { ...counts }
  const rss = startRssSampler(100)
  const run = await timed(fn)
  const memory = rss.stop()
  phases.push({ label, rows, seconds: run.seconds, cpuSeconds: run.cpuSeconds, startMB: memory.startBytes / MB, peakMB: memory.peakBytes / MB, lookups: counts.lookups - before.lookups, probes: counts.probes - before.probes })
  return run.result
}

// ---------------------------------------------------------------------------------------------------------------
// The file

/** Every demo business (with a postcode) of each city and category, shuffled: the file mixes cities and categories. */
async function demoPool(): Promise<Pooled[]> {
  const pool: Pooled[] = []
  for (const place of CITIES) {
    for (const id of CATEGORIES) {
      const resolved = resolveCriteria({ sector: id, country: 'France', ...place })
      if (!resolved.ok) throw new Error(`${place.city} does not resolve`)
      const category = resolveCategory(id, 'fr')
      for await (const business of source.search(searchParamsOf(resolved.criteria, 'fr'), category, { limit: 400 })) if (business.postalCode) pool.push({ business, naf: category?.naf ?? [] })
    }
  }
  const rng = new Rng(31)
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  return pool
}

/**
 * Each row's kind: the unknown names at random places (evenly spaced they would fall on the sample's evenly spaced
 * positions, list-match.ts samplePositions, and skew its estimate), the other rows by SIRET, website, name in turn.
 */
function rowKinds(total: number): RowKind[] {
  const unknownAt = new Set(new Rng(7).sample(Array.from({ length: total }, (_, i) => i), Math.round(total * UNKNOWN_SHARE)))
  const turns: RowKind[] = ['siret', 'domain', 'name']
  let turn = 0
  return Array.from({ length: total }, (_, i) => (unknownAt.has(i) ? 'unknown' : turns[turn++ % 3]!))
}

/** `count` businesses with their SIRET as the registry knows it, registered under their category's activity. */
async function withSirets(candidates: Pooled[], count: number): Promise<Array<{ pooled: Pooled; siret: string }>> {
  let found = 0
  const sirets = await pMap(candidates, async (pooled) => {
    if (found >= count) return null
    const { business, naf } = pooled
    const match = await enrichers.lookupRegistry({ name: business.name, postalCode: business.postalCode, city: business.city, nafCodes: naf }, {})
    const siret = match.status === 'success' ? (match.info.results as Array<{ siret?: string }>)[0]?.siret : undefined
    if (!siret) return null
    found++
    return { pooled, siret }
  }, { concurrency: MATCH_CONCURRENCY })
  return sirets.filter((entry) => entry !== null).slice(0, count)
}

/** Names the demo registry has no company for at these postcodes (and the map no business): rows nothing matches. */
function unknownRows(count: number, pool: Pooled[]): string[][] {
  const rows: string[][] = []
  for (let n = 1; rows.length < count; n++) {
    const { postalCode, city } = pool[n % pool.length]!.business
    const name = `Zéphyr Quantique ${n}`
    const reply = routeRegistryRequest('GET', `/search?${new URLSearchParams({ q: name, code_postal: postalCode! })}`)
    if ((reply.body as { results: unknown[] }).results.length === 0) rows.push([name, '', '', postalCode!, city ?? '', 'inconnue au registre'])
  }
  return rows
}

/** The file's rows in file order, each kind's from its own businesses (no business is in two rows). */
async function benchRows(): Promise<{ rows: string[][]; unknownNames: Set<string>; pool: number }> {
  const pool = await demoPool()
  const kinds = rowKinds(ROWS)
  const need = (kind: RowKind) => kinds.filter((k) => k === kind).length
  const bySite = pool.filter(({ business }) => business.website).slice(0, need('domain'))
  const used = new Set(bySite)
  // Every other business for the SIRET rows, the others for the name rows: were the name rows the businesses whose
  // SIRET lookup found nothing, they would be the very names the registry does not know.
  const rest = pool.filter((pooled) => !used.has(pooled))
  const bySiret = await withSirets(rest.filter((_, i) => i % 2 === 0), need('siret'))
  const byName = rest.filter((_, i) => i % 2 === 1).slice(0, need('name'))
  if (bySite.length < need('domain') || bySiret.length < need('siret') || byName.length < need('name')) {
    throw new Error(`the demo pool (${pool.length} businesses of ${CITIES.length} cities × ${CATEGORIES.length} categories) is too small for ${ROWS} rows`)
  }
  const queues: Record<RowKind, string[][]> = {
    siret: bySiret.map(({ siret }, i) => ['', siret, '', '', '', `Client ${i + 1}`]),
    domain: bySite.map(({ business }) => [business.name, '', business.website!, '', '', 'vu au salon']),
    name: byName.map(({ business }) => [business.name, '', '', business.postalCode!, business.city ?? '', 'prospect']),
    unknown: unknownRows(need('unknown'), pool),
  }
  const unknownNames = new Set(queues.unknown.map((row) => row[0]!))
  return { rows: kinds.map((kind) => queues[kind].shift()!), unknownNames, pool: pool.length }
}

function csvBytes(rows: string[][]): Uint8Array {
  const quote = (cell: string) => (/[;"\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)
  return new TextEncoder().encode(`${[HEADERS, ...rows].map((row) => row.map(quote).join(';')).join('\r\n')}\r\n`)
}

// ---------------------------------------------------------------------------------------------------------------
// Upload, mapping + sample, the match of every row

async function uploadAndMap(user: SessionUser, bytes: Uint8Array) {
  const parsed = await phase('parse (parseListFile)', ROWS, () => parseListFile(bytes, 'salon.csv'))
  if (isListFileRefusal(parsed)) throw new Error(`file refused: ${JSON.stringify(parsed)}`)
  const uploaded = await phase('upload (uploadList: parse + store)', ROWS, () => uploadList({ user, fileName: 'salon.csv', bytes }))
  if (!uploaded.ok) throw new Error(`upload refused: ${uploaded.code}`)
  const columns = guessColumnKinds(uploaded.parsed.headers, uploaded.parsed.rows)
  if (columns.join() !== EXPECTED_COLUMNS.join()) throw new Error(`columns guessed as ${columns.join(', ')}`)
  const confirmed = await phase('mapping + sample (confirmListMapping)', ROWS, () => confirmListMapping({ user, listId: uploaded.listId, columns, lang: 'fr', deps: { enrichers, source } }))
  if (!confirmed.ok) throw new Error(`mapping refused: ${confirmed.code}`)
  return { listId: uploaded.listId, columns, sample: confirmed.list.sample!, exactRepeats: parsed.duplicates }
}

/** Every usable row matched as the list's export matches them (list-source.ts): null when the registry failed. */
async function matchEveryRow(listId: string, columns: ListColumnKind[]) {
  const reading = await phase('read mapped list (readMappedList)', ROWS, () => readMappedList(listId, columns))
  const matcher = createListMatcher({ enrichers, source, listId, websiteColumn: columns.indexOf('website'), lang: 'fr' })
  const matchOne = async (row: ListReading['rows'][number]) => {
    try {
      return await matcher.match(row)
    } catch (error) {
      if (error instanceof ListMatchFailed) return null
      throw error
    }
  }
  const outcomes = await phase(`match every row (${MATCH_CONCURRENCY} at once)`, reading.rows.length, () => pMap(reading.rows, matchOne, { concurrency: MATCH_CONCURRENCY }))
  return { reading, outcomes }
}

/** The map's own business (its phone, its site), not the registry's data alone nor the row's site. */
const onMap = (outcome: ListCandidate | null) => outcome?.source === 'demo' && !outcome.placeId.startsWith('registry-')
const isMatched = (outcome: ListCandidate | null) => outcome?.listMatch.status === 'matched'

/** One line of the table: `kind`, when given, is the rows' own, so a match by another identifier is counted. */
function kindLine(label: string, group: Array<ListCandidate | null>, kind?: string) {
  const matched = group.filter(isMatched)
  const byOther = kind ? matched.filter((outcome) => outcome!.listMatch.kind !== kind).length : null
  return [label, group.length, matched.length, percent(matched.length, group.length), matched.filter(onMap).length, byOther, group.filter((outcome) => outcome === null).length]
}

function printMatchRates(reading: ListReading, outcomes: Array<ListCandidate | null>, unknownNames: Set<string>, exactRepeats: number) {
  const byKind = new Map(LIST_MATCH_KINDS.map((kind) => [kind, [] as Array<ListCandidate | null>]))
  const names = { real: [] as Array<ListCandidate | null>, planted: [] as Array<ListCandidate | null> }
  reading.rows.forEach((row, i) => {
    const kind = rowMatchKind(row)
    byKind.get(kind)!.push(outcomes[i]!)
    if (kind === 'name') names[unknownNames.has(row.name ?? '') ? 'planted' : 'real'].push(outcomes[i]!)
  })
  const left = `${exactRepeats} exact repeats, ${reading.duplicates.length} repeats of a company, ${reading.unusable.length} unusable`
  console.log(`\nMatch of every usable row (${reading.rows.length}; left out: ${left}), by the identifier each row is matched by`)
  printTable(['kind', 'rows', 'matched', 'match rate', 'on the map', 'by another kind', 'registry failed'], [
    ...[...byKind].map(([kind, group]) => kindLine(kind, group, kind)),
    kindLine('  name: real businesses', names.real),
    kindLine('  name: planted unknown names', names.planted),
    kindLine('all', outcomes),
  ])
  // An export records one lead per business: a second row matched to a business is no row of its own in the file.
  const seen = new Set<string>()
  const shared = outcomes.filter((outcome) => isMatched(outcome) && (seen.has(`${outcome!.source}|${outcome!.placeId}`) || !seen.add(`${outcome!.source}|${outcome!.placeId}`))).length
  console.log(`Rows matched to a business an earlier row was matched to (one lead for both in the export): ${shared}`)
}

function printSample(sample: ListSampleSummary, outcomes: Array<ListCandidate | null>) {
  const estimate = estimateMatches(sample)
  const matched = outcomes.filter((outcome) => outcome?.listMatch.status === 'matched').length
  console.log(`\nSample: ${sample.matched}/${sample.sampled} sampled rows matched (${sample.failed} failed); estimate ${estimate.matched} of ${estimate.usable} rows (${estimate.low}–${estimate.high}), the full match found ${matched}`)
}

// ---------------------------------------------------------------------------------------------------------------
// End to end: the list's export against map-first exports of as many leads

interface RunFigures {
  label: string
  exports: number
  leads: number
  matched: number
  seconds: number
  searchSeconds: number
  cpuSeconds: number
  lookups: number
  crawls: number
  successes: [number, number, number]
  credits: number
  /** What the export's gates left out (exports.excluded), by reason. */
  excluded: Record<string, number>
  peakMB: number
}

async function exportFigures(exportId: string) {
  const { rows } = await admin.query(
    `select e.status, e.lead_count, e.excluded,
            count(el.*) filter (where el.list_match is null or el.list_match ->> 'status' = 'matched')::int as matched,
            count(el.*) filter (where el.phone_status = 'success')::int as phone,
            count(el.*) filter (where el.email_status = 'success')::int as email,
            count(el.*) filter (where el.admin_fr_info_status = 'success')::int as registry,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as credits
       from public.exports e left join public.export_leads el on el.export_id = e.id where e.id = $1 group by e.id`,
    [exportId],
  )
  const row = rows[0]
  if (row?.status !== 'completed') throw new Error(`export ${exportId} not completed: ${JSON.stringify(row)}`)
  return { leads: row.lead_count as number, matched: row.matched as number, successes: [row.phone, row.email, row.registry] as [number, number, number], credits: row.credits as number, excluded: (row.excluded ?? {}) as Record<string, number> }
}

/** The exports run one after another, measured together. */
async function measuredRun(label: string, exportIds: string[]): Promise<RunFigures> {
  const before = { ...counts }
  const rss = startRssSampler(100)
  let searchSeconds = 0
  const run = await timed(async () => {
    for (const exportId of exportIds) {
      const start = performance.now()
      let enrichmentAt = 0
      // reuseDays 0: every run enriches for real instead of reading another run's results from the store.
      const result = await processExport(exportId, { enrichers, source, concurrency: CONCURRENCY, reuseDays: 0, onPhase: (name) => void (name === 'enrichment' && (enrichmentAt ||= performance.now())) })
      if (result.outcome !== 'completed') throw new Error(`${label}: ${result.outcome}`)
      searchSeconds += ((enrichmentAt || performance.now()) - start) / 1000
    }
  })
  const peakMB = rss.stop().peakBytes / MB
  const total: RunFigures = { label, exports: exportIds.length, leads: 0, matched: 0, seconds: run.seconds, searchSeconds, cpuSeconds: run.cpuSeconds, lookups: counts.lookups - before.lookups, crawls: counts.crawls - before.crawls, successes: [0, 0, 0], credits: 0, excluded: {}, peakMB }
  for (const exportId of exportIds) {
    const figures = await exportFigures(exportId)
    total.leads += figures.leads
    total.matched += figures.matched
    total.credits += figures.credits
    total.successes = total.successes.map((n, i) => n + figures.successes[i]!) as RunFigures['successes']
    for (const [reason, n] of Object.entries(figures.excluded)) total.excluded[reason] = (total.excluded[reason] ?? 0) + n
  }
  return total
}

async function listExport(user: SessionUser, listId: string): Promise<RunFigures> {
  const launched = await launchList({ user, listId, name: 'Salon (bench)', enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr', maxLeads: E2E_ROWS })
  if (!launched.ok) throw new Error(`launch refused: ${launched.code}`)
  return measuredRun(`list (its first ${E2E_ROWS} usable rows)`, [launched.exportId])
}

/** Map-first exports, one department and category each (a demo search finds at most 400), `total` leads in all. */
async function mapFirstExports(user: SessionUser, total: number): Promise<string[]> {
  const exportIds: string[] = []
  let left = total
  for (const sector of CATEGORIES) {
    for (const { region, department } of CITIES) {
      if (left <= 0) return exportIds
      const criteria = { sector, country: 'France', region, department, city: '' }
      const resolved = resolveCriteria(criteria)
      if (!resolved.ok) throw new Error(`${department} does not resolve`)
      let found = 0
      for await (const _ of source.search(searchParamsOf(resolved.criteria, 'fr'), resolveCategory(sector, 'fr'), { limit: left })) found++
      const created = await createExport({ user, name: `${sector} ${department} (bench)`, criteria, enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr', maxLeads: Math.min(found, env.EXPORT_MAX_LEADS) })
      if (!created.ok) throw new Error(`map-first export refused: ${created.code}`)
      exportIds.push(created.exportId)
      left -= Math.min(found, env.EXPORT_MAX_LEADS)
    }
  }
  return exportIds
}

function printEndToEnd(runs: RunFigures[]) {
  console.log(`\nEnd to end, phone + email + admin_fr_info, ${CONCURRENCY} leads in flight per export, same run`)
  printTable(
    ['export', 'exports', 'leads', 'matched', 'seconds', 'search/match s', 'enrichment s', 'leads/s', 'CPU ms/lead', 'registry lookups', 'crawls', 'phone/email/registry ok', 'credits', 'left out', 'peak RSS MB'],
    runs.map((run) => [
      run.label,
      run.exports,
      run.leads,
      run.matched,
      round(run.seconds),
      round(run.searchSeconds),
      round(run.seconds - run.searchSeconds),
      round(run.leads / run.seconds),
      round((run.cpuSeconds * 1000) / run.leads, 2),
      run.lookups,
      run.crawls,
      run.successes.join(' / '),
      run.credits,
      Object.entries(run.excluded).map(([reason, n]) => `${reason} ${n}`).join(', ') || '-',
      Math.round(run.peakMB),
    ]),
  )
  const [list, map] = runs as [RunFigures, RunFigures]
  console.log(`\nList export: ${round(list.leads / list.seconds)} leads/s, ${round(list.leads / list.seconds / (map.leads / map.seconds), 2)}× the map-first baseline (${round(map.leads / map.seconds)} leads/s)`)
}

function printPhases() {
  console.log(`\nPhases (${ROWS}-row file; RSS of this process, sampled every 100 ms)`)
  printTable(
    ['phase', 'rows', 'seconds', 'rows/s', 'CPU s', 'registry lookups', 'site probes', 'RSS at start MB', 'peak RSS MB'],
    phases.map((p) => [p.label, p.rows, round(p.seconds, 3), Math.round(p.rows / p.seconds), round(p.cpuSeconds, 2), p.lookups, p.probes, Math.round(p.startMB), Math.round(p.peakMB)]),
  )
}

// ---------------------------------------------------------------------------------------------------------------

/** The file built, uploaded, mapped and matched whole; its rows and matches are let go before the end-to-end part. */
async function fileAndMatch(owner: SessionUser): Promise<string> {
  const built = await timed(benchRows)
  const bytes = csvBytes(built.result.rows)
  console.log(`file: ${ROWS} rows, ${round(bytes.length / MB, 2)} MB, built in ${round(built.seconds)} s from ${built.result.pool} demo businesses (listings + ${counts.lookups} registry lookups for the SIRETs)`)
  const { listId, columns, sample, exactRepeats } = await uploadAndMap(owner, bytes)
  const { reading, outcomes } = await matchEveryRow(listId, columns)
  printPhases()
  printMatchRates(reading, outcomes, built.result.unknownNames, exactRepeats)
  printSample(sample, outcomes)
  return listId
}

try {
  const owner = await newUser()
  const listId = await fileAndMatch(owner)
  console.log(`\nend to end: ${E2E_ROWS} rows of the list against ${E2E_ROWS} map-first leads…`)
  const warmUp = await newUser()
  await measuredRun('warm-up (untimed)', await mapFirstExports(warmUp, 20))
  const listRun = await listExport(owner, listId)
  const mapRun = await measuredRun('map-first baseline, summed', await mapFirstExports(await newUser(), listRun.leads))
  printEndToEnd([listRun, mapRun])
  console.log(`Peak RSS of the whole run (getrusage maxrss): ${Math.round((process.resourceUsage().maxRSS * 1024) / MB)} MB`)
} finally {
  await engine.close?.()
  await admin.end()
  setExportQueueBoss(undefined)
  await closeDb()
  await registry.stop()
  await sites.stop()
  await database.stop()
}
