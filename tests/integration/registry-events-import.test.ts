// The daily registry-events import (issue 32 item 1) against the real embedded Postgres and the local INSEE / BODACC
// server in their real formats: paging, resume after a crash at the saved cursor, idempotent re-import and replay,
// retries after Retry-After, the API key, one import per day across concurrent callers, BODACC families and the
// risk they give. Every test uses its own days and SIRENs: the store is shared with other test files.
import fs from 'node:fs'
import path from 'node:path'
import { PgBoss } from 'pg-boss'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { jsonArrayItems } from '#app/.server/registry-events/bodacc-export.ts'
import { importDay, type ImportDeps } from '#app/.server/registry-events/import-day.ts'
import { importRecentDays, REGISTRY_EVENTS_QUEUE, registerRegistryEventJobs } from '#app/.server/registry-events/scheduler.ts'
import { createPacer } from '#app/.server/registry-events/sirene-flux.ts'
import { readRisks } from '#app/.server/registry-events/store.ts'
import { readSireneEtablissement, type SireneEtablissement } from '#app/domain/sirene-record.ts'
import { type BodaccRecord, type RegistryEventsServer, type RegistryEventsServerOptions, startRegistryEventsServer } from '#server/demo/registry-events-server.ts'

const KEY = 'test-insee-key'
const SIRENE_FIXTURE = JSON.parse(fs.readFileSync('tests/fixtures/sirene/flux-day.json', 'utf8')) as { answer: { etablissements: SireneEtablissement[] } }
const BODACC_FIXTURES = path.resolve(import.meta.dirname, '../fixtures/bodacc')
const TEMPLATE = SIRENE_FIXTURE.answer.etablissements[0]!
const db = () => adminDb()

let servers: RegistryEventsServer[] = []
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
})
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  servers = []
})
afterAll(async () => {
  await closeDb()
})

async function serve(options: Partial<RegistryEventsServerOptions>): Promise<RegistryEventsServer> {
  const server = await startRegistryEventsServer({ establishmentsOn: () => [], announcementsOn: () => [], apiKey: KEY, ...options })
  servers.push(server)
  return server
}

/** `count` establishments of the fixture's shape, SIRENs starting with `prefix` (each test its own). */
function establishments(prefix: string, count: number, processedAt = '2011-03-02T08:00:00.000'): SireneEtablissement[] {
  return Array.from({ length: count }, (_, i) => {
    const siren = `${prefix}${String(i).padStart(9 - prefix.length, '0')}`
    return {
      ...structuredClone(TEMPLATE),
      siren,
      siret: `${siren}00012`,
      dateDernierTraitementEtablissement: processedAt,
      uniteLegale: { ...TEMPLATE.uniteLegale, denominationUniteLegale: `BOULANGERIE ${i}` },
    }
  })
}

function deps(server: RegistryEventsServer, overrides: Partial<ImportDeps> = {}, sleeps: number[] = []): ImportDeps {
  return {
    sirene: { baseUrl: server.inseeUrl, apiKey: KEY, pacer: createPacer(0) },
    bodacc: { baseUrl: server.bodaccUrl },
    http: { sleep: async (ms) => void sleeps.push(ms), backoffMs: 5 },
    ...overrides,
  }
}

async function storedEstablishments(sirets: string[]) {
  const { rows } = await sql<Record<string, unknown>>`select * from public.registry_establishments where siret = any(${sirets}::text[]) order by siret`.execute(db())
  return rows
}

async function importRow(source: string, day: string) {
  const { rows } = await sql<{ status: string; cursor: string | null; rows: number; error: string | null }>`
    select status, cursor, rows, error from public.registry_imports where source = ${source} and day = ${day}::date`.execute(db())
  return rows[0]
}

describe('Sirene flux', () => {
  it('stores a 2 500-establishment day paged by 1 000, then a re-import fetches and changes nothing, a replay changes nothing', async () => {
    const day = '2011-03-01'
    const list = establishments('710', 2_500)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    const sirets = list.map((e) => e.siret)

    const first = await importDay(db(), 'sirene', day, deps(server))
    expect(first).toMatchObject({ outcome: 'imported', rows: 2_500, pages: 3, unusable: 0 })
    expect(server.requests.sirene).toBe(3)
    const stored = await storedEstablishments(sirets)
    expect(stored).toHaveLength(2_500)
    expect(stored[7]).toMatchObject({ siret: list[7]!.siret, name: 'AU PAIN DORE', naf: '10.71C', department: '69', source: 'flux', state: 'A' })
    expect(await importRow('sirene', day)).toMatchObject({ status: 'done', rows: 2_500, error: null })

    const again = await importDay(db(), 'sirene', day, deps(server))
    expect(again).toMatchObject({ outcome: 'done', rows: 2_500, pages: 0 })
    expect(server.requests.sirene).toBe(3)
    expect(await storedEstablishments(sirets)).toEqual(stored)

    const replay = await importDay(db(), 'sirene', day, deps(server, { replay: true }))
    expect(replay).toMatchObject({ outcome: 'imported', rows: 2_500, pages: 3 })
    expect(server.requests.sirene).toBe(6)
    // Same processing date: not one row rewritten (imported_at included).
    expect(await storedEstablishments(sirets)).toEqual(stored)
    expect(await importRow('sirene', day)).toMatchObject({ status: 'done', rows: 2_500 })
  })

  it('resumes after a crash at the saved cursor, without fetching page 1 again', async () => {
    const day = '2011-03-02'
    const list = establishments('711', 2_500)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    let killed = false
    const kill = () => {
      if (killed) return
      killed = true
      throw new Error('worker killed')
    }
    const crashed = await importDay(db(), 'sirene', day, deps(server, { afterPage: kill }))
    expect(crashed).toMatchObject({ outcome: 'failed', rows: 1_000, error: 'worker killed' })
    expect(server.requests.sirene).toBe(1)
    const saved = await importRow('sirene', day)
    expect(saved).toMatchObject({ status: 'failed', rows: 1_000 })
    expect(saved?.cursor).not.toBe('*')
    expect(await storedEstablishments(list.map((e) => e.siret))).toHaveLength(1_000)

    const resumed = await importDay(db(), 'sirene', day, deps(server))
    expect(resumed).toMatchObject({ outcome: 'imported', rows: 2_500, pages: 2 })
    expect(server.requests.sirene).toBe(3)
    expect(await storedEstablishments(list.map((e) => e.siret))).toHaveLength(2_500)
  })

  it('takes over a day whose worker died (lease expired), and leaves alone one whose lease runs', async () => {
    const day = '2011-03-03'
    const list = establishments('712', 1_500)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    await importDay(db(), 'sirene', day, deps(server, { afterPage: () => Promise.reject(new Error('stop')) }))
    // What a killed process leaves: running, its lease in the future (another worker must wait)…
    await sql`update public.registry_imports set status = 'running', lease_until = now() + interval '1 minute' where source = 'sirene' and day = ${day}::date`.execute(db())
    expect(await importDay(db(), 'sirene', day, deps(server))).toMatchObject({ outcome: 'busy' })
    expect(server.requests.sirene).toBe(1)
    // …then past: the day is taken over at its cursor.
    await sql`update public.registry_imports set lease_until = now() - interval '1 second' where source = 'sirene' and day = ${day}::date`.execute(db())
    expect(await importDay(db(), 'sirene', day, deps(server))).toMatchObject({ outcome: 'imported', rows: 1_500, pages: 1 })
    expect(server.requests.sirene).toBe(2)
  })

  it('retries a 429 after its Retry-After', async () => {
    const day = '2011-03-04'
    const list = establishments('713', 10)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []), failOnce: { retryAfterSeconds: 3 } })
    const sleeps: number[] = []
    expect(await importDay(db(), 'sirene', day, deps(server, {}, sleeps))).toMatchObject({ outcome: 'imported', rows: 10 })
    expect(server.requests.sirene).toBe(2)
    expect(sleeps).toEqual([3_000])
  })

  it('sends the key (a wrong one fails clearly), and without one skips Sirene', async () => {
    const day = '2011-03-05'
    const list = establishments('714', 5)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    const wrong = await importDay(db(), 'sirene', day, deps(server, { sirene: { baseUrl: server.inseeUrl, apiKey: 'not-the-key', pacer: createPacer(0) } }))
    expect(wrong.outcome).toBe('failed')
    expect(wrong.error).toMatch(/HTTP 401 \(check INSEE_API_KEY\)/)
    expect(await importRow('sirene', day)).toMatchObject({ status: 'failed' })

    const logs: string[] = []
    const noKey = deps(server, { sirene: { baseUrl: server.inseeUrl, apiKey: undefined, pacer: createPacer(0) }, log: (m) => logs.push(m) })
    expect(await importDay(db(), 'sirene', '2011-03-06', noKey)).toMatchObject({ outcome: 'skipped' })
    expect(await importDay(db(), 'sirene', '2011-03-07', noKey)).toMatchObject({ outcome: 'skipped' })
    expect(await importRow('sirene', '2011-03-06')).toBeUndefined()
    expect(server.requests.sirene).toBe(1)
    expect(logs.filter((m) => m.includes('INSEE_API_KEY'))).toHaveLength(1)

    expect(await importDay(db(), 'sirene', day, deps(server))).toMatchObject({ outcome: 'imported', rows: 5 })
  })

  it('imports a day once when two workers start it together', async () => {
    const day = '2011-03-08'
    const list = establishments('715', 2_100)
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    const results = await Promise.all([importDay(db(), 'sirene', day, deps(server)), importDay(db(), 'sirene', day, deps(server))])
    expect(results.map((r) => r.outcome).sort()).toEqual(['busy', 'imported'])
    expect(server.requests.sirene).toBe(3)
    expect(await storedEstablishments(list.map((e) => e.siret))).toHaveLength(2_100)
  })

  it('counts an unusable record without failing, and takes an empty day (404) as done', async () => {
    const day = '2011-03-09'
    const list = [...establishments('716', 3), { ...structuredClone(TEMPLATE), siret: '71600000900012', siren: '716000009', periodesEtablissement: [] }]
    const server = await serve({ establishmentsOn: (d) => (d === day ? list : []) })
    expect(await importDay(db(), 'sirene', day, deps(server))).toMatchObject({ outcome: 'imported', rows: 3, unusable: 1 })
    expect(await importDay(db(), 'sirene', '2011-04-01', deps(server))).toMatchObject({ outcome: 'imported', rows: 0, pages: 0 })
    expect(await importRow('sirene', '2011-04-01')).toMatchObject({ status: 'done', rows: 0 })
  })

  it('maps what it stores as readSireneEtablissement does', async () => {
    const day = '2011-03-10'
    const usable = SIRENE_FIXTURE.answer.etablissements.filter((e) => readSireneEtablissement(e))
    const server = await serve({ establishmentsOn: (d) => (d === day ? SIRENE_FIXTURE.answer.etablissements : []) })
    expect(await importDay(db(), 'sirene', day, deps(server))).toMatchObject({ outcome: 'imported', rows: usable.length, unusable: 2 })
    const stored = await storedEstablishments(usable.map((e) => e.siret))
    const corsica = stored.find((row) => row.commune === '2A004')
    expect(corsica).toMatchObject({ department: '2A', city: 'AJACCIO', name: 'CORSICA LOCATIONS', legal_form: '5499' })
  })
})

/** A fixture record under its own SIREN and id (other test files store the same fixtures). */
function isolated(record: BodaccRecord, siren: string, suffix: string): BodaccRecord {
  const id = String(record.id)
  const spaced = `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`
  const out: BodaccRecord = {}
  for (const [key, value] of Object.entries(record)) {
    out[key] = typeof value === 'string' ? value.replaceAll(id, `${id}${suffix}`).replaceAll('833 310 592', spaced).replaceAll('833310592', siren) : value
  }
  out.numeroannonce = `${String(record.numeroannonce)}${suffix}`
  return out
}

function bodaccFixture(name: string): { today: string; records: BodaccRecord[]; expected: { status: string; announcementId: string } } {
  return JSON.parse(fs.readFileSync(path.join(BODACC_FIXTURES, name), 'utf8'))
}

describe('BODACC exports', () => {
  it('imports each family of the day; the liquidation case reads as liquidation; an unusable record is counted', async () => {
    const liquidation = bodaccFixture('liquidation.json')
    const radiation = bodaccFixture('radiation-company-active.json')
    const day = String(liquidation.records[0]!.dateparution)
    const records: Record<string, BodaccRecord[]> = {
      collective: liquidation.records.map((r) => isolated(r, '731000001', '91')),
      radiation: radiation.records.map((r) => isolated({ ...r, dateparution: day }, '731000002', '91')),
      creation: [{ id: 'A2026008199999', dateparution: day, familleavis: 'creation' }],
      immatriculation: [],
    }
    const server = await serve({ announcementsOn: (d, family) => (d === day ? (records[family] ?? []) : []) })
    const result = await importDay(db(), 'bodacc', day, deps(server))
    expect(result).toMatchObject({ outcome: 'imported', rows: 2, pages: 4, unusable: 1 })
    expect(server.requests.bodacc).toBe(4)

    const risks = await readRisks(db(), ['731000001', '731000002'], liquidation.today)
    expect(risks.get('731000001')).toMatchObject({ status: 'liquidation', announcement: { id: `${liquidation.expected.announcementId}91`, tribunal: expect.any(String) } })
    expect(risks.get('731000002')?.status).toBe('radiee')

    const snapshot = async () => (await sql`select id, sirens, published_on, family, announcement, imported_at from public.registry_announcements where sirens && ${['731000001', '731000002']}::text[] order by id`.execute(db())).rows
    const before = await snapshot()
    expect(await importDay(db(), 'bodacc', day, deps(server))).toMatchObject({ outcome: 'done' })
    expect(server.requests.bodacc).toBe(4)
    expect(await importDay(db(), 'bodacc', day, deps(server, { replay: true }))).toMatchObject({ outcome: 'imported', rows: 2 })
    expect(await snapshot()).toEqual(before)
  })

  it('resumes at the first family not stored', async () => {
    const day = '2011-05-03'
    const server = await serve({})
    const stop = await importDay(db(), 'bodacc', day, deps(server, { afterPage: ({ cursor }) => { if (cursor === 'collective,radiation') throw new Error('killed') } }))
    expect(stop).toMatchObject({ outcome: 'failed' })
    expect(await importRow('bodacc', day)).toMatchObject({ status: 'failed', cursor: 'collective,radiation' })
    expect(await importDay(db(), 'bodacc', day, deps(server))).toMatchObject({ outcome: 'imported', pages: 2 })
    expect(server.requests.bodacc).toBe(4)
  })
})

describe('jsonArrayItems', () => {
  const text = ' [ {"a": "x]}\\"[", "b": [1, {"c": "é"}]}, {"d": null} ,{"e":"\\\\"}]\n'
  const expected = ['{"a": "x]}\\"[", "b": [1, {"c": "é"}]}', '{"d": null}', '{"e":"\\\\"}']

  async function items(chunks: string[]): Promise<string[]> {
    const out: string[] = []
    async function* source() {
      yield* chunks
    }
    for await (const item of jsonArrayItems(source())) out.push(item)
    return out
  }

  it('splits an array into its items wherever the chunks are cut', async () => {
    for (let cut = 0; cut <= text.length; cut += 1) expect(await items([text.slice(0, cut), text.slice(cut)])).toEqual(expected)
    expect(await items([...text])).toEqual(expected)
    expect(expected.map((item) => JSON.parse(item))).toHaveLength(3)
    expect(await items(['[]'])).toEqual([])
  })

  it('refuses what is not one whole array', async () => {
    await expect(items(['{"error_code": "x"}'])).rejects.toThrow(/not a JSON array/)
    await expect(items(['[{"a": 1}, {"b"'])).rejects.toThrow(/cut short/)
  })
})

describe('importRecentDays and the pg-boss job', () => {
  it('imports yesterday and the days before not done, then nothing', async () => {
    const list = establishments('720', 4)
    const server = await serve({ establishmentsOn: (d) => (d === '2012-05-08' ? list : []) })
    const results = await importRecentDays(db(), { days: 3, today: '2012-05-10', deps: deps(server) })
    expect(results.map((r) => `${r.source} ${r.day} ${r.outcome} ${r.rows}`)).toEqual([
      'sirene 2012-05-09 imported 0',
      'bodacc 2012-05-09 imported 0',
      'sirene 2012-05-08 imported 4',
      'bodacc 2012-05-08 imported 0',
      'sirene 2012-05-07 imported 0',
      'bodacc 2012-05-07 imported 0',
    ])
    const calls = { ...server.requests }
    expect(calls).toEqual({ sirene: 3, bodacc: 12 })
    const next = await importRecentDays(db(), { days: 4, today: '2012-05-10', deps: deps(server) })
    expect(next.filter((r) => r.outcome === 'imported').map((r) => `${r.source} ${r.day}`)).toEqual(['sirene 2012-05-06', 'bodacc 2012-05-06'])
    expect(server.requests).toEqual({ sirene: 4, bodacc: 16 })
  })

  it('registers a daily schedule that runs the import, and nothing when the import is off', async () => {
    const server = await serve({})
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    Object.assign(process.env, { BODACC_URL: server.bodaccUrl, INSEE_API_URL: server.inseeUrl, INSEE_API_KEY: '', REGISTRY_EVENTS_BACKFILL_DAYS: '1' })
    const boss = new PgBoss({ connectionString: inject('databaseUrl'), schema: 'pgboss_registry_events_test' })
    boss.on('error', () => {})
    await boss.start()
    try {
      process.env.REGISTRY_EVENTS_IMPORT = 'off'
      await registerRegistryEventJobs(boss)
      expect(await boss.getSchedules(REGISTRY_EVENTS_QUEUE)).toHaveLength(0)
      const off = await boss.send(REGISTRY_EVENTS_QUEUE, {})
      await expect.poll(async () => (await boss.getJobById(REGISTRY_EVENTS_QUEUE, off!))?.state, { timeout: 15_000 }).toBe('completed')
      expect(server.requests).toEqual({ sirene: 0, bodacc: 0 })

      process.env.REGISTRY_EVENTS_IMPORT = 'on'
      await registerRegistryEventJobs(boss)
      expect(await boss.getSchedules(REGISTRY_EVENTS_QUEUE)).toMatchObject([{ name: REGISTRY_EVENTS_QUEUE, cron: '40 6 * * *' }])
      const before = await importRow('bodacc', yesterday)
      await boss.send(REGISTRY_EVENTS_QUEUE, {})
      await expect.poll(async () => (await importRow('bodacc', yesterday))?.status, { timeout: 15_000 }).toBe('done')
      // Sirene has no key here: skipped, no request.
      expect(server.requests).toEqual({ sirene: 0, bodacc: before?.status === 'done' ? 0 : 4 })
    } finally {
      await boss.stop({ graceful: false })
      // The day is a real one: leave it as other files may expect it (not imported) when this test imported it.
      await sql`delete from public.registry_imports where source = 'bodacc' and day = ${yesterday}::date and rows = 0`.execute(db())
      for (const name of ['BODACC_URL', 'INSEE_API_URL', 'INSEE_API_KEY', 'REGISTRY_EVENTS_BACKFILL_DAYS', 'REGISTRY_EVENTS_IMPORT']) delete process.env[name]
    }
  }, 40_000)
})
