/**
 * `npm run db:backup [path]`: a backup of the embedded database under DATA_DIR (default .data), taken while the app
 * runs or not, into `path` (default backups/leadatlas-<timestamp>). How and why: server/embedded-backup.ts.
 * With DATABASE_URL set the database is not ours to copy: docs/deployment.md ("Backups") says how to back up a hosted one.
 */
import path from 'node:path'
import { validateEnv } from '../app/.server/env.server.ts'
import { backupEmbedded } from '../server/embedded-backup.ts'

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const config = validateEnv()
if (config.DATABASE_URL) {
  console.error('db:backup copies the embedded database only; DATABASE_URL points elsewhere: see docs/deployment.md, "Backups" (hosted databases).')
  process.exit(2)
}
const dataDir = path.resolve(config.DATA_DIR)
const target = path.resolve(args[0] ?? path.join('backups', `leadatlas-${new Date().toISOString().replace(/[:.]/g, '-')}`))
try {
  const manifest = await backupEmbedded({ dataDir, target })
  console.log(`Backup written to ${target} (Postgres ${manifest.serverVersion}, ${manifest.online ? 'taken online' : 'cluster stopped'}, ${manifest.migrations.length || 'all'} migrations).`)
  const relative = path.relative(process.cwd(), target)
  console.log(`Restore it with: npm run db:restore -- ${relative.startsWith('..') ? target : relative}`)
} catch (error) {
  console.error(`db:backup failed: ${(error as Error).message}`)
  process.exit(1)
}
