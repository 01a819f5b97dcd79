// A throwaway embedded Postgres with the migrations applied (bootstrap included), in a temp
// directory that stop() removes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedPostgres } from '#server/embedded-postgres.ts'
import { migrate } from '#server/migrate.ts'

export interface BenchDatabase {
  /** The app's role, as the app connects. */
  url: string
  /** The superuser: seeding and ANALYZE (only a table's owner may analyze it). */
  superuserUrl: string
  dataDir: string
  stop: () => Promise<void>
}

export async function startBenchDatabase(prefix = 'leadatlas-bench-'): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  // Postgres runs as its own user when we are root: it must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755)
  let db: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined
  const stop = async () => {
    await db?.stop().catch(() => {})
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    // Other processes on this machine start Postgres clusters too: a port taken between the
    // free-port check and Postgres' bind makes the start fail (embedded-postgres then rejects
    // with undefined), so start on a random port and retry a few times.
    for (let attempt = 1; !db; attempt++) {
      const log: string[] = []
      try {
        db = await startEmbeddedPostgres({ dataDir, port: 20_000 + Math.floor(Math.random() * 30_000), log: (line) => log.push(line) })
      } catch (error) {
        if (attempt >= 5) throw new Error(`embedded Postgres did not start: ${String(error)}\n${log.join('').slice(-2000)}`, { cause: error })
      }
    }
    await migrate(db.superuserUrl, { bootstrap: true })
    return { url: db.url, superuserUrl: db.superuserUrl, dataDir, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
