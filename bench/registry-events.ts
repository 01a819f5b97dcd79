// Registry events at scale (issue 32 item 5). On a throwaway embedded Postgres:
//  (a) the Sirene stock loader (app/.server/registry-events/stock-load.ts) on a generated BENCH_STOCK_ROWS-row
//      StockEtablissement CSV (default 1 000 000; tests/support/sirene-stock-file.ts: the real header, 53 columns),
//      against the same file only read and mapped (no database: what the parsing costs), then loaded a second time
//      (the store keeps the newest processing, so nothing is written). Each runs in its own process (bench/lib/child.ts)
//      with RSS sampled every 100 ms: its peak, and RSS at a quarter, half, three quarters and the end of the run (flat
//      figures = memory bounded by the batch, not by the file); the second load runs once more with the V8 heap capped
//      at 64 MB (it would die if the loader held the file).
//  (b) the new-companies watch's query on the establishments loaded — "created in the last 7 days in department X
//      with NAF in (…)" — with the indexes (registry_establishments_department_created) against the same query forced
//      to a full scan (enable_indexscan, enable_bitmapscan, enable_indexonlyscan off) in the same run: EXPLAIN ANALYZE
//      execution times, median of BENCH_QUERY_RUNS (default 7) after one warm-up.
//  (c) the daily imports through importDay (app/.server/registry-events/import-day.ts) against the local INSEE /
//      BODACC server (server/demo/registry-events-server.ts, served by the bench process, no pause between pages): a
//      Sirene flux day of BENCH_FLUX_CHANGES changes (default 20 000, recorded answer shape, pages of 1 000) and a
//      BODACC day of BENCH_BODACC_ANNOUNCEMENTS announcements (default 10 000, recorded records of three families),
//      each imported in its own process, then replayed (fetched again; the flux rewrites no row, BODACC the same rows).
// Figures only, no timed assertion: the bench fails only when a step does.
//   npx tsx bench/registry-events.ts   (BENCH_STOCK_ROWS, BENCH_QUERY_RUNS, BENCH_BATCH (rows per write, default 5000),
//                                       BENCH_FLUX_CHANGES, BENCH_BODACC_ANNOUNCEMENTS)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'csv-parse'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '#app/.server/db.ts'
import { openStockFile } from '#app/.server/registry-events/stock-file.ts'
import { importDay, type RegistrySource } from '#app/.server/registry-events/import-day.ts'
import { createPacer } from '#app/.server/registry-events/sirene-flux.ts'
import { loadEstablishmentStock } from '#app/.server/registry-events/stock-load.ts'
import type { SireneEtablissement } from '#app/domain/sirene-record.ts'
import { stockColumnIndex, stockRecord } from '#app/domain/sirene-stock-row.ts'
import { type BodaccRecord, startRegistryEventsServer } from '#server/demo/registry-events-server.ts'
import { STOCK_NAFS, writeStockFile } from '#tests/support/sirene-stock-file.ts'
import { reportToParent, runInChild } from './lib/child.ts'
import { startBenchDatabase } from './lib/database.ts'
import { MB, startRssTimeline, toMB } from './lib/rss.ts'
import { printTable } from './lib/table.ts'
import { timed } from './lib/timing.ts'

const ROWS = Number(process.env.BENCH_STOCK_ROWS ?? 1_000_000)
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 7)
const BATCH = Number(process.env.BENCH_BATCH ?? 5_000)
const TODAY = new Date().toISOString().slice(0, 10)
const QUARTERS = [0.25, 0.5, 0.75, 1]
const HEAP_CAP_MB = 64

interface ChildFigures {
  rows: number
  written: number
  seconds: number
  cpuSeconds: number
  peakBytes: number
  maxRssBytes: number
  quarterBytes: number[]
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes: one measured run each

/** Reads and maps every row without a database: the loader's floor. */
async function readOnly(file: string): Promise<{ rows: number; written: number }> {
  const parser = (await openStockFile(file)).pipe(parse({ delimiter: ',', bom: true, skip_empty_lines: true, relax_column_count: true }))
  let index: ReturnType<typeof stockColumnIndex> | undefined
  let rows = 0
  let mapped = 0
  for await (const row of parser as AsyncIterable<string[]>) {
    if (!index) {
      index = stockColumnIndex(row)
      if (!index.ok) throw new Error(`missing ${index.missing.join(', ')}`)
      continue
    }
    rows++
    if (index.ok && stockRecord(row, index.index)) mapped++
  }
  return { rows, written: mapped }
}

async function child(mode: string, args: string[]) {
  const rss = startRssTimeline(100)
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  const run = await timed(() => {
    if (mode === 'read') return readOnly(args[0]!)
    if (mode === 'import') return importChild(args[0] as RegistrySource, args[1]!, args[2]!, args[3] === 'true')
    return loadEstablishmentStock(db, args[0]!, { batchSize: BATCH })
  })
  const memory = rss.stop()
  await db.destroy()
  const figures: ChildFigures = {
    rows: run.result.rows,
    written: run.result.written,
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    peakBytes: memory.peakBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    quarterBytes: memory.at(QUARTERS),
  }
  reportToParent(figures)
}

// ---------------------------------------------------------------------------------------------------------------
// (b) the watch's query

const WATCH_SQL = `
  select siret, siren, name, naf, legal_form, headcount, postcode, city, address, created_on
    from public.registry_establishments
   where department = $1 and created_on > $2 and created_on <= $3 and naf = any($4) and state = 'A'
   order by created_on, siret`

interface Explained {
  ms: number
  rows: number
  plan: string
}

async function explain(client: pg.PoolClient, params: unknown[]): Promise<Explained> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number; Plan: PlanNode }> }>(`explain (analyze, format json) ${WATCH_SQL}`, params)
  const [top] = rows[0]!['QUERY PLAN']
  return { ms: top!['Execution Time'], rows: top!.Plan['Actual Rows'], plan: scanNodes(top!.Plan).join(' + ') }
}

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Actual Rows': number
  Plans?: PlanNode[]
}

/** The scans of a plan ("Bitmap Index Scan registry_establishments_department_created", "Seq Scan"). */
function scanNodes(node: PlanNode): string[] {
  const own = /Scan/.test(node['Node Type']) ? [`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`] : []
  return [...own, ...(node.Plans ?? []).flatMap(scanNodes)]
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timeWatchQuery(pool: pg.Pool, params: unknown[], fullScan: boolean): Promise<Explained & { runs: number[] }> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    if (fullScan) await client.query('set local enable_indexscan = off; set local enable_bitmapscan = off; set local enable_indexonlyscan = off')
    await explain(client, params) // warm-up: the table's pages in the cache for both
    const runs: Explained[] = []
    for (let i = 0; i < QUERY_RUNS; i++) runs.push(await explain(client, params))
    await client.query('rollback')
    return { ...runs[0]!, ms: median(runs.map((run) => run.ms)), runs: runs.map((run) => run.ms) }
  } finally {
    client.release()
  }
}

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)
}

async function watchQueries(pool: pg.Pool) {
  const cases = [
    { label: 'Rhône, 7 days, 3 NAF', params: ['69', daysBefore(TODAY, 7), TODAY, ['10.71C', '56.10A', '47.76Z']] },
    { label: 'Gironde, 7 days, 1 NAF', params: ['33', daysBefore(TODAY, 7), TODAY, ['43.22A']] },
    { label: 'Paris, 30 days, all NAF', params: ['75', daysBefore(TODAY, 30), TODAY, STOCK_NAFS] },
  ]
  const rows = []
  for (const { label, params } of cases) {
    const indexed = await timeWatchQuery(pool, params, false)
    const scan = await timeWatchQuery(pool, params, true)
    if (indexed.rows !== scan.rows) throw new Error(`${label}: ${indexed.rows} rows with the index, ${scan.rows} by full scan`)
    rows.push([label, indexed.rows, indexed.ms.toFixed(2), scan.ms.toFixed(2), `${(scan.ms / indexed.ms).toFixed(0)}×`, indexed.plan, scan.plan])
  }
  return rows
}

// ---------------------------------------------------------------------------------------------------------------
// (c) the daily imports through importDay, against the local INSEE / BODACC server (served by this process, the
//     import in a child so its RSS is its own)

const FLUX_CHANGES = Number(process.env.BENCH_FLUX_CHANGES ?? 20_000)
const BODACC_ANNOUNCEMENTS = Number(process.env.BENCH_BODACC_ANNOUNCEMENTS ?? 10_000)
const IMPORT_DAY = '2026-03-10'
const INSEE_KEY = 'bench-insee-key'

/** A flux day: `count` establishments of the recorded answer's shape, each its own SIREN, processed that day. */
function fluxDay(count: number): SireneEtablissement[] {
  const fixture = JSON.parse(fs.readFileSync('tests/fixtures/sirene/flux-day.json', 'utf8')) as { answer: { etablissements: SireneEtablissement[] } }
  const template = fixture.answer.etablissements[0]!
  return Array.from({ length: count }, (_, i) => {
    const siren = `8${String(i).padStart(8, '0')}`
    return { ...structuredClone(template), siren, siret: `${siren}00012`, dateDernierTraitementEtablissement: `${IMPORT_DAY}T08:00:00.000`, uniteLegale: { ...template.uniteLegale, denominationUniteLegale: `ENTREPRISE ${i}` } }
  })
}

/** A BODACC day: `count` announcements shared by three families, each from a recorded record with its own id and SIREN. */
function bodaccDay(count: number): Map<string, BodaccRecord[]> {
  const record = (file: string, at: number) => (JSON.parse(fs.readFileSync(`tests/fixtures/bodacc/${file}`, 'utf8')) as { records: BodaccRecord[] }).records[at]!
  const templates = [record('liquidation.json', 0), record('radiation-company-active.json', 0), record('radiation-then-creation.json', 1)]
  const byFamily = new Map<string, BodaccRecord[]>()
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!
    const oldSiren = /(\d{9})$/.exec(String(template.registre))![1]!
    const siren = `7${String(i).padStart(8, '0')}`
    const spaced = (digits: string) => digits.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3')
    const text = JSON.stringify(template).replaceAll(spaced(oldSiren), spaced(siren)).replaceAll(oldSiren, siren).replaceAll(String(template.id), `A2026${String(i).padStart(8, '0')}`)
    const copy: BodaccRecord = { ...(JSON.parse(text) as BodaccRecord), dateparution: IMPORT_DAY }
    const family = String(copy.familleavis)
    byFamily.set(family, [...(byFamily.get(family) ?? []), copy])
  }
  return byFamily
}

async function importChild(source: RegistrySource, inseeUrl: string, bodaccUrl: string, replay: boolean): Promise<{ rows: number; written: number }> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  try {
    const result = await importDay(db, source, IMPORT_DAY, { sirene: { baseUrl: inseeUrl, apiKey: INSEE_KEY, pacer: createPacer(0) }, bodacc: { baseUrl: bodaccUrl }, replay })
    if (result.outcome !== 'imported') throw new Error(`${source} ${IMPORT_DAY}: ${result.outcome} ${result.error ?? ''}`)
    return { rows: result.rows, written: result.pages }
  } finally {
    await db.destroy()
  }
}

async function importBenches(databaseUrl: string) {
  const establishments = fluxDay(FLUX_CHANGES)
  const announcements = bodaccDay(BODACC_ANNOUNCEMENTS)
  const server = await startRegistryEventsServer({
    apiKey: INSEE_KEY,
    establishmentsOn: (day) => (day === IMPORT_DAY ? establishments : []),
    announcementsOn: (day, family) => (day === IMPORT_DAY ? (announcements.get(family) ?? []) : []),
  })
  try {
    const rows = []
    for (const source of ['sirene', 'bodacc'] as const) {
      for (const replay of [false, true]) {
        const f = await runInChild<ChildFigures>(import.meta.filename, ['--child', 'import', source, server.inseeUrl, server.bodaccUrl, String(replay)], { DATABASE_URL: databaseUrl })
        const label = `${source === 'sirene' ? `Sirene flux day, ${FLUX_CHANGES} changes` : `BODACC day, ${BODACC_ANNOUNCEMENTS} announcements`}${replay ? (source === 'sirene' ? ', replayed (fetched again, nothing rewritten)' : ', replayed (fetched again, same rows rewritten)') : ''}`
        rows.push([label, f.rows, f.written, f.seconds.toFixed(1), Math.round(f.rows / f.seconds), f.cpuSeconds.toFixed(1), toMB(f.peakBytes), toMB(f.maxRssBytes)])
      }
    }
    return rows
  } finally {
    await server.stop()
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  console.log(`Registry events: a ${ROWS.toLocaleString('en-US')}-row stock, batches of ${BATCH}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-bench-stock-'))
  const database = await startBenchDatabase('leadatlas-bench-registry-')
  const admin = new pg.Pool({ connectionString: database.superuserUrl, max: 2 })
  try {
    const file = path.join(dir, 'StockEtablissement_utf8.csv')
    const written = await timed(() => writeStockFile(file, ROWS, { today: TODAY }))
    console.log(`Generated ${file}: ${toMB(fs.statSync(file).size)} MB in ${written.seconds.toFixed(1)} s\n`)

    const runs: Array<[string, ChildFigures]> = []
    const scenarios = [
      ['read + map only (no database)', 'read', []],
      ['load (empty store)', 'load', []],
      ['load again (same file: nothing to write)', 'load', []],
      // A loader that held the file (or fell behind the database) would die here: the heap cannot grow past 64 MB.
      [`load again, heap capped (--max-old-space-size=${HEAP_CAP_MB})`, 'load', [`--max-old-space-size=${HEAP_CAP_MB}`]],
    ] as const
    for (const [label, mode, nodeArgs] of scenarios) {
      runs.push([label, await runInChild<ChildFigures>(import.meta.filename, ['--child', mode, file], { DATABASE_URL: database.url }, [...nodeArgs])])
    }
    console.log('(a) Stock loader')
    printTable(
      ['run', 'rows', 'written', 's', 'rows/s', 'CPU s', 'peak RSS MB', 'maxrss MB', 'RSS at 25/50/75/100 % MB'],
      runs.map(([label, f]) => [label, f.rows, f.written, f.seconds.toFixed(1), Math.round(f.rows / f.seconds), f.cpuSeconds.toFixed(1), toMB(f.peakBytes), toMB(f.maxRssBytes), f.quarterBytes.map((bytes) => (bytes / MB).toFixed(0)).join(' / ')]),
    )

    await admin.query('analyze public.registry_establishments')
    const size = await admin.query<{ rows: string; table: string; indexes: string }>(
      `select count(*)::text as rows, pg_size_pretty(pg_table_size('public.registry_establishments')) as table, pg_size_pretty(pg_indexes_size('public.registry_establishments')) as indexes from public.registry_establishments`,
    )
    console.log(`\n(b) The watch's query on ${Number(size.rows[0]!.rows).toLocaleString('en-US')} establishments (table ${size.rows[0]!.table}, indexes ${size.rows[0]!.indexes}); EXPLAIN ANALYZE, median of ${QUERY_RUNS}`)
    printTable(['query', 'rows', 'index ms', 'full scan ms', 'ratio', 'plan (index)', 'plan (forced)'], await watchQueries(admin))

    console.log('\n(c) Daily imports through importDay against the local INSEE / BODACC server (pages: Sirene pages of 1 000 / BODACC families fetched)')
    printTable(['import', 'rows', 'pages', 's', 'rows/s', 'CPU s', 'peak RSS MB', 'maxrss MB'], await importBenches(database.url))
  } finally {
    await admin.end()
    await database.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const childAt = process.argv.indexOf('--child')
if (childAt >= 0) await child(process.argv[childAt + 1]!, process.argv.slice(childAt + 2))
else await main()
