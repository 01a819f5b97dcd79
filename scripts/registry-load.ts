/**
 * `npm run registry:load FILE [--legal-units FILE] [--batch N]`: loads INSEE's monthly StockEtablissement file (CSV,
 * .csv.gz or the .zip data.gouv.fr publishes) into the registry events store, then, when given, StockUniteLegale for
 * the legal forms and the companies' names. How and why: docs/registry-events.md.
 *
 * The database: DATABASE_URL when set; else the embedded one under DATA_DIR (default .data): the running cluster of
 * `npm start` when there is one, else that cluster started here for the load (migrations applied) and stopped after.
 * Exit codes: 0 done, 1 a file it cannot read or a failed load, 2 a usage error or a Parquet file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../app/.server/db.ts'
import { validateEnv } from '../app/.server/env.server.ts'
import { loadEstablishmentStock, loadLegalUnits, type StockLoadProgress } from '../app/.server/registry-events/stock-load.ts'
import { StockFileError } from '../app/.server/registry-events/stock-file.ts'
import { startEmbeddedPostgres } from '../server/embedded-postgres.ts'
import { migrate } from '../server/migrate.ts'
import { APP_ROLE, embeddedUrl, passwordFile, readPassword } from '../server/postgres-secrets.ts'

const USAGE = 'Usage: npm run registry:load -- <StockEtablissement.csv | .csv.gz | .zip> [--legal-units <StockUniteLegale.csv | .csv.gz | .zip>] [--batch 5000]'

function parseArgs(argv: string[]): { file: string; legalUnits: string | null; batchSize: number } {
  const valueOf = (flag: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] ?? '') : null)
  const batch = valueOf('--batch')
  const legalUnits = valueOf('--legal-units')
  const batchSize = batch === null ? 5_000 : Number(batch)
  const rest = argv.filter((arg, at) => !arg.startsWith('--') && !['--batch', '--legal-units'].includes(argv[at - 1] ?? ''))
  if (rest.length !== 1 || legalUnits === '' || !Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) fail(2, USAGE)
  return { file: path.resolve(rest[0]!), legalUnits: legalUnits && path.resolve(legalUnits), batchSize }
}

function fail(code: number, message: string): never {
  console.error(message)
  process.exit(code)
}

/** The port of the cluster running under `dataDir` (its postmaster.pid names a live process), else null. */
function runningClusterPort(dataDir: string): number | null {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')
    process.kill(Number(lines[0]), 0)
    return Number(lines[3]) || null
  } catch {
    return null
  }
}

async function openDatabase(): Promise<{ url: string; where: string; stop: () => Promise<void> }> {
  const config = validateEnv()
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, where: 'DATABASE_URL', stop: async () => {} }
  const dataDir = path.resolve(config.DATA_DIR)
  const port = runningClusterPort(dataDir)
  if (port) return { url: embeddedUrl({ user: APP_ROLE, password: readPassword(passwordFile(dataDir, 'app')), port }), where: `the running embedded database (${dataDir})`, stop: async () => {} }
  if (!fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))) {
    fail(1, `No embedded database under ${dataDir}: run npm start once (or set DATA_DIR), or set DATABASE_URL.`)
  }
  const db = await startEmbeddedPostgres({ dataDir })
  await migrate(db.superuserUrl, { bootstrap: true })
  return { url: db.url, where: `the embedded database (${dataDir}), started for the load`, stop: db.stop }
}

const round = (value: number) => Math.round(value).toLocaleString('en-US')

function printProgress(progress: StockLoadProgress) {
  console.log(`${round(progress.rows)} rows read, ${round(progress.written)} written, ${round(progress.rows / Math.max(progress.seconds, 0.001))} rows/s`)
}

const { file, legalUnits, batchSize } = parseArgs(process.argv.slice(2))
for (const given of [file, legalUnits]) if (given && !fs.existsSync(given)) fail(1, `${given} does not exist.`)
const database = await openDatabase()
console.log(`Loading ${file} into ${database.where}…`)
const pool = new pg.Pool({ connectionString: database.url, max: 2, application_name: 'leadatlas registry:load' })
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
let lastPrint = 0
const onProgress = (progress: StockLoadProgress) => {
  if (progress.seconds - lastPrint < 5) return
  lastPrint = progress.seconds
  printProgress(progress)
}
let code = 0
try {
  const summary = await loadEstablishmentStock(db, file, { batchSize, onProgress })
  const kept = summary.rows - summary.rejected - summary.written
  console.log(
    `Done in ${summary.seconds.toFixed(1)} s: ${round(summary.rows)} rows, ${round(summary.written)} written, ${round(kept)} left as stored (as fresh or fresher), ${round(summary.rejected)} rejected (no valid SIRET or state); ${round(summary.rows / Math.max(summary.seconds, 0.001))} rows/s.`,
  )
  if (legalUnits) {
    console.log(`Completing the establishments from ${legalUnits}…`)
    lastPrint = 0
    const units = await loadLegalUnits(db, legalUnits, { batchSize, onProgress })
    console.log(`Done in ${units.seconds.toFixed(1)} s: ${round(units.rows)} legal units, ${round(units.written)} establishments completed, ${round(units.rejected)} rejected (no valid SIREN).`)
  }
} catch (error) {
  code = error instanceof StockFileError && error.problem === 'parquet' ? 2 : 1
  console.error(`registry:load failed: ${(error as Error).message}`)
} finally {
  await db.destroy()
  await database.stop()
}
process.exit(code)
