// The embedded stack supervises its Postgres: a crash (kill -9 of the postmaster) is followed by a restart on the
// same port and data, the app's pool and pg-boss carry on without a restart of their own, a deliberate stop is not
// restarted, and a Postgres that cannot come back makes the supervisor give up (the process then exits 70).
// Each test runs its own cluster in a temporary data directory.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import getPort from 'get-port'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, expect, test } from 'vitest'
import { closeDb, getPool } from '#app/.server/db.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { startEmbeddedPostgres } from '#server/embedded-postgres.ts'

const dirs: string[] = []
function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-supervise-'))
  fs.chmodSync(dir, 0o755) // postgres runs as its own user when we are root
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

async function count(url: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query<{ n: number }>('select count(*)::int as n from survivor')).rows[0]!.n
  } finally {
    await client.end()
  }
}

async function eventually<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await work()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(250)
    }
  }
}

const postmasterPid = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])

test('a killed Postgres comes back on the same port with its data; the app pool and pg-boss recover; stop() is final', { timeout: 180_000 }, async () => {
  const dataDir = tempDataDir()
  const reports: string[] = []
  let gaveUp = false
  const db = await startEmbeddedPostgres({ dataDir, port: await getPort(), onGiveUp: () => (gaveUp = true), report: (message) => reports.push(message) })
  let boss: PgBoss | undefined
  try {
    const admin = new pg.Client({ connectionString: db.superuserUrl })
    await admin.connect()
    await admin.query('create table survivor (id int); insert into survivor values (1), (2); grant select on survivor to leadatlas_app')
    await admin.end()

    // The app's pool (app/.server/db.ts) with idle connections, and a pg-boss worker, as under `npm start`.
    process.env.DATABASE_URL = db.url
    const pool = getPool()
    await Promise.all([1, 2, 3].map(() => pool.query('select pg_sleep(0.05)')))
    expect(pool.idleCount).toBeGreaterThan(0)
    boss = createBoss({ connectionString: db.url, worker: true, max: 3 })
    boss.on('error', () => {}) // the outage itself is reported; the test checks that it recovers
    await boss.start()
    await boss.createQueue('probe')
    const handled: string[] = []
    await boss.work<{ n: string }>('probe', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      handled.push(job!.data.n)
    })
    await boss.send('probe', { n: 'before' })
    await eventually(async () => expect(handled).toContain('before'), 20_000)

    const before = postmasterPid(dataDir)
    process.kill(before, 'SIGKILL')
    expect(await eventually(() => count(db.url), 60_000)).toBe(2)
    expect(postmasterPid(dataDir)).not.toBe(before)
    expect(gaveUp).toBe(false)
    expect(reports.some((message) => /stopped unexpectedly \(SIGKILL\)/.test(message))).toBe(true)
    expect(reports.some((message) => /restarted/.test(message))).toBe(true)

    // Same pool object, same pg-boss instance: they reconnect by themselves.
    expect((await eventually(() => pool.query<{ n: number }>('select count(*)::int as n from survivor'), 20_000)).rows[0]!.n).toBe(2)
    await eventually(() => boss!.send('probe', { n: 'after' }), 20_000)
    await eventually(async () => expect(handled).toContain('after'), 30_000)
  } finally {
    await boss?.stop({ graceful: false, close: true }).catch(() => {})
    await closeDb()
    const reported = reports.length
    await db.stop()
    // A deliberate stop is final: nothing answers and nothing is restarted.
    await sleep(2_000)
    await expect(count(db.url)).rejects.toThrow()
    expect(reports.slice(reported)).toEqual([])
  }
})

test('Postgres that cannot come back (its data directory gone): the supervisor gives up after 5 failures within a minute', { timeout: 120_000 }, async () => {
  const dataDir = tempDataDir()
  const reports: string[] = []
  let gaveUp = 0
  const db = await startEmbeddedPostgres({ dataDir, port: await getPort(), onGiveUp: () => gaveUp++, report: (message) => reports.push(message) })
  try {
    // Moving the cluster away right after the kill makes every restart fail, deterministically (taking the port
    // instead races the killed postmaster's children, which hold the listening socket until they exit).
    const pid = postmasterPid(dataDir)
    process.kill(pid, 'SIGKILL')
    fs.renameSync(path.join(dataDir, 'postgres'), path.join(dataDir, 'moved-away'))
    // 0.5 + 1 + 2 + 4 + 8 s of backoff, then the sixth failure.
    await eventually(async () => expect(gaveUp).toBe(1), 90_000)
    expect(reports.filter((message) => /restart attempt \d+ failed/.test(message))).toHaveLength(5)
    expect(reports.at(-1)).toMatch(/giving up/)
  } finally {
    // Stopping a cluster whose postgres is gone returns at once.
    await db.stop()
  }
  await sleep(1_000)
  expect(gaveUp).toBe(1)
})
