// The embedded cluster's credentials: generated at first start, kept in DATA_DIR (mode 0600) and reused after.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** The superuser: migrations, bootstrap and cluster maintenance only. */
export const SUPERUSER = 'postgres'
/** The login role of the app, the worker, pg-boss and the local auth server. supabase/bootstrap.sql names it too. */
export const APP_ROLE = 'leadatlas_app'
export const DATABASE = 'leadatlas'
/** The password every cluster created before credentials were generated has (see legacy-cluster.ts). */
export const LEGACY_SUPERUSER_PASSWORD = 'postgres'

export function passwordFile(dataDir: string, role: 'superuser' | 'app'): string {
  return path.resolve(dataDir, `postgres-${role}.password`)
}

/** The password kept in `file`; throws when it is missing (the cluster was not started from this DATA_DIR yet). */
export function readPassword(file: string): string {
  const password = fs.readFileSync(file, 'utf8').trim()
  if (password.length < 32) throw new Error(`${file} does not hold a generated password: remove it to generate a new one`)
  return password
}

/**
 * The password kept in `file`, generated (256 random bits) on first use. The file is written owner-only and
 * linked into place, so two processes starting at once agree on one password and nobody reads half a file;
 * a file left readable by others is made owner-only again.
 */
export function readOrCreatePassword(file: string): string {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`
    fs.writeFileSync(temporary, `${crypto.randomBytes(32).toString('base64url')}\n`, { mode: 0o600 })
    try {
      fs.linkSync(temporary, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      fs.rmSync(temporary, { force: true })
    }
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600)
  return readPassword(file)
}

/** A connection string for the embedded cluster on loopback. */
export function embeddedUrl({ user, password, port }: { user: string; password: string; port: number }): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`
}
