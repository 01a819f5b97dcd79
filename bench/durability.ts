// Durability benchmark (security issue 18: the embedded Postgres ran with fsync=off): what fsync=on costs the writes
// that must survive a crash, measured in one run on one embedded cluster, switching settings between measurements.
//
//   npx tsx bench/durability.ts [--ops 3000] [--concurrency 1,8]
//
// Workloads, each commit acknowledged to the caller as the app does it (the app's role, one transaction per call):
//   ledger    public.apply_credit_change(): a credit ledger row and the balance update
//   pipeline  public.record_lead_enrichment(): an export's per-lead write (statuses, values, the charge)
// Settings:
//   fsync on          the embedded default now (synchronous_commit on): an acknowledged commit is on disk
//   sync commit off   fsync on, synchronous_commit off: a crash may lose the last ~0.6 s of acknowledged commits
//   fsync off         the former default: a machine crash may lose or corrupt anything (not only recent commits)
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { startBenchDatabase } from './lib/database.ts'
import { printTable, type TableValue } from './lib/table.ts'

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '3000' }, // commits per measurement, shared by the connections
    concurrency: { type: 'string', default: '1,8' }, // connections writing at once
  },
})
const OPS = Number(values.ops)
const CONCURRENCY = values.concurrency.split(',').map(Number)

const SETTINGS = [
  { name: 'fsync on', fsync: 'on', synchronousCommit: 'on' },
  { name: 'sync commit off', fsync: 'on', synchronousCommit: 'off' },
  { name: 'fsync off (former)', fsync: 'off', synchronousCommit: 'on' },
] as const
type Setting = (typeof SETTINGS)[number]
type Workload = 'ledger' | 'pipeline'

/** Applies a setting cluster-wide (both are reloadable) and waits until a new connection sees it. */
async function apply(superuser: pg.Client, appUrl: string, setting: Setting) {
  await superuser.query(`alter system set fsync = ${setting.fsync}`)
  await superuser.query(`alter system set synchronous_commit = ${setting.synchronousCommit}`)
  await superuser.query('select pg_reload_conf()')
  for (let i = 0; ; i++) {
    const probe = new pg.Client({ connectionString: appUrl })
    await probe.connect()
    const { rows } = await probe.query<{ fsync: string; sync: string }>("select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync")
    await probe.end()
    if (rows[0]!.fsync === setting.fsync && rows[0]!.sync === setting.synchronousCommit) return
    if (i > 100) throw new Error(`the cluster did not take ${setting.name}`)
    await sleep(50)
  }
}

/** A user with a large balance, an export and `leads` leads whose phone enrichment is pending (for the pipeline). */
async function seedUser(superuser: pg.Client, leads: number) {
  const userId = randomUUID()
  await superuser.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@bench.test`])
  await superuser.query("select public.apply_credit_change($1, 10000000, 'adjustment', $2)", [userId, `bench:${userId}`])
  const exportId = (await superuser.query<{ id: string }>("insert into public.exports (user_id, name) values ($1, 'durability') returning id", [userId])).rows[0]!.id
  const { rows } = await superuser.query<{ id: string }>(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name)
       select $1, 'demo', 'bench-' || $2::text || '-' || n, 'Lead ' || n from generate_series(1, $3::int) n returning id)
     insert into public.export_leads (export_id, lead_id, user_id, position, phone_status)
     select $2::uuid, id, $1, row_number() over (), 'pending' from inserted returning lead_id as id`,
    [userId, exportId, leads],
  )
  return { userId, exportId, leadIds: rows.map((row) => row.id) }
}

async function measure(appUrl: string, superuser: pg.Client, workload: Workload, connections: number, ops = OPS): Promise<number> {
  const perConnection = Math.ceil(ops / connections)
  const users: Array<Awaited<ReturnType<typeof seedUser>>> = []
  for (let i = 0; i < connections; i++) users.push(await seedUser(superuser, workload === 'pipeline' ? perConnection : 0))
  const clients = await Promise.all(
    users.map(async () => {
      const client = new pg.Client({ connectionString: appUrl })
      await client.connect()
      return client
    }),
  )
  const started = performance.now()
  await Promise.all(
    clients.map(async (client, index) => {
      const user = users[index]!
      for (let op = 0; op < perConnection; op++) {
        if (workload === 'ledger') {
          await client.query("select public.apply_credit_change($1, -1, 'adjustment', $2)", [user.userId, `bench:${randomUUID()}`])
        } else {
          await client.query("select public.record_lead_enrichment($1, $2, $3, '{\"phone\": \"success\"}', '{\"phone\": \"+33 1 00 00 00 00\"}')", [
            user.userId,
            user.exportId,
            user.leadIds[op],
          ])
        }
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  await Promise.all(clients.map((client) => client.end()))
  // Every call must have written its ledger row (the pipeline's charge), or the figure measures nothing.
  const { rows } = await superuser.query<{ n: number }>("select count(*)::int as n from public.credit_ledger where user_id = any($1) and reason <> 'free_trial' and delta < 0", [users.map((user) => user.userId)])
  if (rows[0]!.n !== perConnection * connections) throw new Error(`${workload}: ${rows[0]!.n} ledger rows for ${perConnection * connections} calls`)
  return Math.round((perConnection * connections) / seconds)
}

const database = await startBenchDatabase('leadatlas-bench-durability-')
const superuser = new pg.Client({ connectionString: database.superuserUrl })
await superuser.connect()
try {
  console.log(`Durable writes per second (${OPS} commits per measurement; embedded Postgres in ${database.dataDir})\n`)
  const rows: TableValue[][] = []
  for (const workload of ['ledger', 'pipeline'] as const) {
    for (const connections of CONCURRENCY) {
      const figures: Record<string, number> = {}
      await measure(database.url, superuser, workload, connections, 200) // warm-up (caches, plans), not counted
      for (const setting of SETTINGS) {
        await apply(superuser, database.url, setting)
        figures[setting.name] = await measure(database.url, superuser, workload, connections)
      }
      const on = figures['fsync on']!
      const off = figures['fsync off (former)']!
      rows.push([workload, connections, on, figures['sync commit off'], off, `${Math.round((1 - on / off) * 100)} %`])
    }
  }
  printTable(['workload', 'connections', 'fsync on /s', 'sync commit off /s', 'fsync off /s', 'cost of fsync'], rows)
  await apply(superuser, database.url, SETTINGS[0])
} finally {
  await superuser.end()
  await database.stop()
}
