/**
 * `npm run db:restore -- <path> [--force]`: puts a backup made by `npm run db:backup` in place of the embedded
 * database under DATA_DIR; `npm start` then runs on it. Refuses while the database is in use (npm start or a worker
 * holds it) unless --force, which stops it first. The replaced cluster is kept beside it until removed by hand.
 */
import path from 'node:path'
import { validateEnv } from '../app/.server/env.server.ts'
import { restoreEmbedded } from '../server/embedded-backup.ts'

const args = process.argv.slice(2)
const source = args.find((arg) => !arg.startsWith('--'))
if (!source) {
  console.error('Usage: npm run db:restore -- <backup directory> [--force]')
  process.exit(2)
}
const config = validateEnv()
if (config.DATABASE_URL) {
  console.error('db:restore restores the embedded database only; DATABASE_URL points elsewhere: see docs/deployment.md, "Backups" (hosted databases).')
  process.exit(2)
}
try {
  const { keptAt, manifest } = await restoreEmbedded({ dataDir: path.resolve(config.DATA_DIR), source: path.resolve(source), force: args.includes('--force') })
  console.log(`Restored the backup of ${manifest.createdAt}. npm start now runs on it.`)
  if (keptAt) console.log(`The database it replaced is kept at ${keptAt}: remove it once you no longer need it.`)
} catch (error) {
  console.error(`db:restore failed: ${(error as Error).message}`)
  process.exit(1)
}
