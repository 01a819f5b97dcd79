// Download benchmark (ARCHITECTURE §9: 100 000 leads as CSV and XLSX, streamed; peak RSS < 250 MB).
//
//   npx tsx bench/download.ts [--leads 100000] [--batches 100,1000] [--semi 16]
//
// Seeds one fully enriched export (every enrichment on: 39 columns) in a fresh embedded Postgres,
// then measures, each in its own process so memory figures do not mix:
//   streamed      openExportDownload() as the user, piped into a Writable that discards
//                 (default cursor batch, then each extra --batches size for comparison)
//   streamed-slow the same into a client reading 8 MB/s: backpressure must keep memory flat
//   naive         the baseline: every row in memory from one query, the whole file built in
//                 memory (csv-stringify/sync, exceljs Workbook.writeBuffer), then written
//                 (run with --max-old-space-size=8192 so it can finish)
// plus "streamed" again with V8's young generation capped (--max-semi-space-size, --semi 16):
// on a machine with lots of RAM V8 lets it grow to 128 MB under a steady allocation rate, which
// is most of a streamed download's RSS (the rows in flight are a few MB).
import { randomUUID } from 'node:crypto'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { parseArgs } from 'node:util'
import { stringify as stringifySync } from 'csv-stringify/sync'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { closeDb, withUser } from '#app/.server/db.ts'
import { BATCH_SIZE, exportLeadsQuery, openExportDownload, type DownloadFormat } from '#app/.server/exports/download.ts'
import { safeCell } from '#app/.server/exports/download/writers.ts'
import { exportColumns, rowCells, SHEET_NAME } from '#app/.server/exports/download/columns.ts'
import { reportToParent, runInChild } from './lib/child.ts'
import { startBenchDatabase } from './lib/database.ts'
import { discardWritable } from './lib/discard.ts'
import { MB, startRssSampler, toMB } from './lib/rss.ts'
import { printTable } from './lib/table.ts'
import { timed } from './lib/timing.ts'

const BUDGET_MB = 250
const SLOW_BYTES_PER_SECOND = 8 * 1024 * 1024
const ALL_ENRICHMENTS = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

type Method = 'streamed' | 'streamed-slow' | 'naive'
interface Scenario {
  format: DownloadFormat
  method: Method
  batch: number | null
  /** Extra Node flags of the child process. */
  nodeFlags: string[]
}
interface Result extends Scenario {
  seconds: number
  cpuSeconds: number
  startRssBytes: number
  peakRssBytes: number
  maxRssBytes: number
  fileBytes: number
}

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '100000' },
    batches: { type: 'string', default: '100,1000' }, // extra cursor batch sizes to compare, comma-separated ('' for none)
    semi: { type: 'string', default: '16' }, // also run "streamed" with --max-semi-space-size=<MB> ('' for no)
    child: { type: 'string' }, // internal: "<format>:<method>:<batch>"
  },
})

if (values.child) await child(values.child)
else await main(Number(values.leads), values.batches.split(',').filter(Boolean).map(Number), values.semi ? Number(values.semi) : null)

// ---------------------------------------------------------------------------
// Parent: database, seed, one child per scenario, table.

async function main(leadCount: number, extraBatches: number[], semiSpaceMB: number | null) {
  if (!Number.isInteger(leadCount) || leadCount <= 0) throw new Error('--leads must be a positive integer')
  if (extraBatches.some((batch) => !Number.isInteger(batch) || batch <= 0)) throw new Error('--batches: positive integers')
  console.log(`Download benchmark: ${leadCount.toLocaleString('en')} leads, 39 columns, ${process.version}, default cursor batch ${BATCH_SIZE} rows`)
  const database = await startBenchDatabase()
  try {
    const seeded = await timed(() => seed(database.superuserUrl, leadCount))
    console.log(`Seeded in ${seeded.seconds.toFixed(1)} s (embedded Postgres in ${database.dataDir})\n`)
    const env = { DATABASE_URL: database.url, BENCH_USER_ID: seeded.result.userId, BENCH_EXPORT_ID: seeded.result.exportId }

    const scenarios: Scenario[] = []
    for (const format of ['csv', 'xlsx'] as const) {
      scenarios.push({ format, method: 'streamed', batch: BATCH_SIZE, nodeFlags: [] })
      if (semiSpaceMB) scenarios.push({ format, method: 'streamed', batch: BATCH_SIZE, nodeFlags: [`--max-semi-space-size=${semiSpaceMB}`] })
      for (const batch of extraBatches.filter((size) => size !== BATCH_SIZE)) scenarios.push({ format, method: 'streamed', batch, nodeFlags: [] })
      scenarios.push(
        { format, method: 'streamed-slow', batch: BATCH_SIZE, nodeFlags: [] },
        // The baseline needs more than the default heap limit to finish XLSX.
        { format, method: 'naive', batch: null, nodeFlags: ['--max-old-space-size=8192'] },
      )
    }
    const results: Array<Result | (Scenario & { error: string })> = []
    for (const scenario of scenarios) {
      const label = [scenario.format, scenario.method, scenario.batch ? `batch ${scenario.batch}` : '', ...scenario.nodeFlags].filter(Boolean).join(' ')
      process.stderr.write(`  running ${label}...\n`)
      try {
        const args = ['--child', `${scenario.format}:${scenario.method}:${scenario.batch ?? ''}`]
        results.push({ ...(await runInChild<Result>(import.meta.filename, args, env, scenario.nodeFlags)), nodeFlags: scenario.nodeFlags })
      } catch (error) {
        results.push({ ...scenario, error: (error as Error).message.split('\n')[0]! })
      }
    }

    console.log()
    printTable(
      ['format', 'method', 'batch', 'node flags', 'seconds', 'CPU s', 'start RSS MB', 'peak RSS MB', 'maxRSS MB', 'file MB'],
      results.map((r) => {
        const head = [r.format, r.method, r.batch, r.nodeFlags.join(' ') || '-']
        return 'error' in r
          ? [...head, `failed: ${r.error}`]
          : [...head, r.seconds.toFixed(2), r.cpuSeconds.toFixed(2), toMB(r.startRssBytes), toMB(r.peakRssBytes), toMB(r.maxRssBytes), toMB(r.fileBytes)]
      }),
    )
    console.log(
      '\npeak RSS: process.memoryUsage().rss sampled every 50 ms; maxRSS: the kernel high-water mark of the process (getrusage).' +
        `\nstreamed-slow: the client reads ${toMB(SLOW_BYTES_PER_SECOND, 0)} MB/s. Each row is a fresh process (tsx included in start RSS).` +
        `\nBudget (ARCHITECTURE §9): streamed peak RSS < ${BUDGET_MB} MB.`,
    )
    const done = results.filter((r): r is Result => !('error' in r))
    const peak = (r: Result) => Math.max(r.peakRssBytes, r.maxRssBytes)
    for (const r of done.filter((r) => r.method !== 'naive' && r.batch === BATCH_SIZE)) {
      const within = peak(r) < BUDGET_MB * MB
      console.log(`  ${r.format} ${r.method} ${r.nodeFlags.join(' ')}: ${toMB(peak(r))} MB, ${within ? 'within' : 'OVER'} budget`)
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const streamed = done.find((r) => r.format === format && r.method === 'streamed' && r.batch === BATCH_SIZE && !r.nodeFlags.length)
      const naive = done.find((r) => r.format === format && r.method === 'naive')
      if (!streamed || !naive) continue
      console.log(
        `  ${format}: naive takes ${(naive.seconds / streamed.seconds).toFixed(2)}x the streamed time ` +
          `and ${(peak(naive) / peak(streamed)).toFixed(1)}x its peak memory (${toMB(peak(naive) - naive.startRssBytes)} vs ${toMB(peak(streamed) - streamed.startRssBytes)} MB above start)`,
      )
    }
  } finally {
    await database.stop()
  }
}

/** One user, one export with every enrichment, `count` realistic leads linked in position order. */
async function seed(url: string, count: number) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const userId = randomUUID()
    await client.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [userId, `${userId}@bench.test`, {}])
    const { rows } = await client.query<{ id: string }>(
      `insert into public.exports (user_id, name, status, enrichment_options, lead_count)
       values ($1, 'Boulangeries Lyon 2e', 'completed', $2, $3) returning id`,
      [userId, ALL_ENRICHMENTS, count],
    )
    const exportId = rows[0]!.id
    await client.query(
      `with inserted as (
         insert into public.leads (
           user_id, source, place_id, name, full_address, city, postal_code, country_code, phone, website,
           latitude, longitude, rating, review_count, business_types, google_maps_url, working_hours,
           operational_state, description, email, technologies, social_media, admin_fr_info)
         select $1, 'demo', 'bench-' || g,
           case when g % 1000 = 0 then '=HYPERLINK("http://x/' || g || '")' else 'Boulangerie Pâtisserie n°' || g end,
           g || ' rue de la République, 69002 Lyon', 'Lyon', '69002', 'FR',
           '+33 4 ' || lpad((g % 100)::text, 2, '0') || ' 12 34 56',
           'https://boulangerie-' || g || '.example.fr',
           45.76 + (g % 1000) / 100000.0, 4.83 - (g % 1000) / 100000.0,
           round((3 + (g % 20) / 10.0)::numeric, 1), g % 500,
           array['bakery', 'cafe', 'store'],
           'https://maps.google.com/?cid=' || (1000000000 + g),
           jsonb_build_object('weekdayDescriptions', jsonb_build_array(
             'Monday: 7:00 AM – 8:00 PM', 'Tuesday: 7:00 AM – 8:00 PM', 'Wednesday: 7:00 AM – 8:00 PM',
             'Thursday: 7:00 AM – 8:00 PM', 'Friday: 7:00 AM – 8:00 PM', 'Saturday: 8:00 AM – 1:00 PM', 'Sunday: Closed')),
           'OPERATIONAL',
           'Artisan boulanger depuis 1990 : pains au levain, viennoiseries et pâtisseries maison, "fait ici".',
           array['contact@boulangerie-' || g || '.example.fr', 'commandes@boulangerie-' || g || '.example.fr'],
           '{"CMS": "WordPress", "JavaScript libraries": ["jQuery", "React"], "Analytics": "Google Analytics"}'::jsonb,
           jsonb_build_object('facebook', 'https://www.facebook.com/boulangerie' || g, 'instagram', 'https://www.instagram.com/boulangerie' || g,
                              'linkedin', 'https://www.linkedin.com/company/boulangerie' || g),
           jsonb_build_object('confidence', 0.9, 'results', jsonb_build_array(jsonb_build_object(
             'siren', lpad(g::text, 9, '0'), 'nom_raison_sociale', 'BOULANGERIE PATISSERIE ' || g,
             'activite_principale', '10.71C', 'nature_juridique', '5710', 'tranche_effectif_salarie', '03',
             'date_creation', '1990-01-01', 'siege', jsonb_build_object('siret', lpad(g::text, 9, '0') || '00013'))))
         from generate_series(1, $3::int) g
         returning id, place_id)
       insert into public.export_leads (export_id, lead_id, user_id, position, phone_status, website_status, email_status,
                                        technologies_status, social_media_status, admin_fr_info_status)
       select $2, id, $1, substr(place_id, 7)::int, 'success', 'success', 'success', 'success', 'success', 'not_found'
         from inserted`,
      [userId, exportId, count],
    )
    await client.query('analyze public.leads; analyze public.export_leads')
    return { userId, exportId }
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------------------
// Child: one scenario, measured in a fresh process.

async function child(spec: string) {
  const [format, method, batchText] = spec.split(':') as [DownloadFormat, Method, string]
  const batch = batchText ? Number(batchText) : null
  const userId = process.env.BENCH_USER_ID!
  const exportId = process.env.BENCH_EXPORT_ID!
  // Load everything the scenario needs before measuring.
  await withUser({ sub: userId }, async () => undefined)
  const sampler = startRssSampler(50)
  const run = await timed(async () => {
    if (method === 'naive') return naive(format, userId, exportId, sampler.sample)
    const opened = await openExportDownload({ claims: { sub: userId }, exportId, format, batchSize: batch ?? BATCH_SIZE })
    if (!opened) throw new Error('export not found')
    const sink = discardWritable({ bytesPerSecond: method === 'streamed-slow' ? SLOW_BYTES_PER_SECOND : undefined })
    await pipeline(Readable.fromWeb(opened.body as import('node:stream/web').ReadableStream<Uint8Array>), sink)
    return sink.bytes
  })
  const rss = sampler.stop()
  await closeDb()
  reportToParent({
    format,
    method,
    batch,
    nodeFlags: process.execArgv.filter((flag) => flag.startsWith('--max-')),
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    startRssBytes: rss.startBytes,
    peakRssBytes: rss.peakBytes,
    maxRssBytes: rss.maxRssBytes,
    fileBytes: run.result,
  } satisfies Result)
}

/** The baseline: one query into memory, the whole file built in memory, then written. */
async function naive(format: DownloadFormat, userId: string, exportId: string, sample: () => void): Promise<number> {
  const { rows, options } = await withUser({ sub: userId }, async (trx) => {
    const found = await trx.selectFrom('exports').select('enrichment_options').where('id', '=', exportId).executeTakeFirstOrThrow()
    return { rows: await exportLeadsQuery(exportId, trx).execute(), options: found.enrichment_options }
  })
  sample()
  const columns = exportColumns(options, 'en')
  let file: Buffer
  if (format === 'csv') {
    const records = rows.map((row) => rowCells(columns, row))
    sample()
    file = Buffer.from(
      stringifySync(records, { bom: true, escape_formulas: true, header: true, columns: columns.map((c) => c.header), record_delimiter: 'windows' }),
    )
  } else {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet(SHEET_NAME.en)
    sheet.columns = columns.map((column) => ({ header: column.header, key: column.key, width: column.width }))
    for (const row of rows) sheet.addRow(rowCells(columns, row).map(safeCell))
    sample()
    file = Buffer.from(await workbook.xlsx.writeBuffer({ useStyles: false, useSharedStrings: false }))
  }
  sample()
  const sink = discardWritable()
  await new Promise<void>((resolve, reject) => sink.end(file, (error?: Error | null) => (error ? reject(error) : resolve())))
  return sink.bytes
}
