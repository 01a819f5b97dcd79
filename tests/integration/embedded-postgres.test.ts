// The embedded stack supervises its Postgres: a crash is followed by a restart on the same port
// and data, and a deliberate stop is not.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import getPort from 'get-port'
import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { startEmbeddedPostgres } from '#server/embedded-postgres.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-supervise-'))
fs.chmodSync(dataDir, 0o755) // postgres runs as its own user when we are root
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function query(url: string) {
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
      await sleep(300)
    }
  }
}

const postmasterPid = () => Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])

test('a killed Postgres comes back on the same port with its data; stop() is final', { timeout: 120_000 }, async () => {
  let gaveUp = false
  const db = await startEmbeddedPostgres({ dataDir, port: await getPort(), onGiveUp: () => (gaveUp = true) })
  const admin = new pg.Client({ connectionString: db.url })
  await admin.connect()
  await admin.query('create table survivor (id int); insert into survivor values (1), (2)')
  await admin.end()

  const before = postmasterPid()
  process.kill(before, 'SIGKILL')
  expect(await eventually(() => query(db.url), 60_000)).toBe(2)
  expect(postmasterPid()).not.toBe(before)
  expect(gaveUp).toBe(false)

  await db.stop()
  await sleep(2_000)
  await expect(query(db.url)).rejects.toThrow()
})
