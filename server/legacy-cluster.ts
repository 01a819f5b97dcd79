// Clusters created before the embedded Postgres had generated credentials ran with fsync=off and clear-text
// password authentication. Once, before such a cluster first starts with fsync on, its files are made durable and
// its authentication upgraded; the passwords themselves are changed once it runs (embedded-roles.ts).
import fs from 'node:fs'
import path from 'node:path'

export function prepareLegacyCluster(databaseDir: string): void {
  syncTree(databaseDir)
  upgradeHbaAuthentication(databaseDir)
}

/**
 * Flushes every file of the cluster to disk. Written with fsync off, pages may still sit in the OS cache only, and
 * a crash would then corrupt a cluster that now relies on what it wrote being on disk: the PostgreSQL manual asks
 * for exactly this (`initdb --sync-only`, or `sync`) when fsync is turned back on.
 */
function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name)
    if (entry.isDirectory()) syncTree(target)
    else if (entry.isFile()) fsyncPath(target)
  }
  fsyncPath(dir)
}

function fsyncPath(target: string): void {
  let fd: number | undefined
  try {
    fd = fs.openSync(target, 'r')
    fs.fsyncSync(fd)
  } catch (error) {
    // A file Postgres removed meanwhile has nothing left to flush; some systems cannot fsync a directory.
    if (!['ENOENT', 'EISDIR', 'EPERM', 'EINVAL'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * `password` authentication sends the password in clear on every connection; scram-sha-256 (what new clusters use)
 * never sends it. The stored passwords are SCRAM verifiers already (Postgres's default password_encryption).
 */
function upgradeHbaAuthentication(databaseDir: string): void {
  const file = path.join(databaseDir, 'pg_hba.conf')
  const text = fs.readFileSync(file, 'utf8')
  const upgraded = text.replace(/^(\s*(?:local|host)\b.*\s)password(\s*)$/gm, '$1scram-sha-256$2')
  // Written in place: the file keeps its owner (the postgres system user when we run as root).
  if (upgraded !== text) fs.writeFileSync(file, upgraded)
}
