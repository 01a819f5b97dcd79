// The Sirene stock loader (app/.server/registry-events/stock-load.ts, `npm run registry:load`) against the real
// embedded Postgres: a generated StockEtablissement file (tests/support/sirene-stock-file.ts, the real header) as
// CSV, .csv.gz and .zip loads every row with the store's mapping; a second load writes nothing; a row the flux stored
// with a fresher processing stays; files that are not the stock stop with a clear message (and the command's exit code).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import type { Database } from '#app/.server/db.ts'
import { loadEstablishmentStock, loadLegalUnits } from '#app/.server/registry-events/stock-load.ts'
import { StockFileError } from '#app/.server/registry-events/stock-file.ts'
import { upsertEstablishments } from '#app/.server/registry-events/store.ts'
import { STOCK_HEADER, stockRowFacts, writeStockFile, zipOf } from '#tests/support/sirene-stock-file.ts'

const ROWS = 3_000
const TODAY = '2026-12-01'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-stock-'))
const csv = path.join(dir, 'StockEtablissement_utf8.csv')
const gz = path.join(dir, 'StockEtablissement_utf8.csv.gz')
const zip = path.join(dir, 'StockEtablissement_utf8.zip')
const sirets = Array.from({ length: ROWS }, (_, n) => stockRowFacts(n, TODAY).siret)

let pool: pg.Pool
let db: Kysely<Database>
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  await writeStockFile(csv, ROWS, { today: TODAY })
  await writeStockFile(gz, ROWS, { today: TODAY, gzip: true })
  fs.writeFileSync(zip, zipOf([{ name: 'LISEZMOI.txt', data: Buffer.from('notice') }, { name: 'StockEtablissement_utf8.csv', data: fs.readFileSync(csv) }]))
})
afterAll(async () => {
  await db.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  await pool.query('delete from public.registry_establishments where siret = any($1)', [sirets])
})

interface StoredRow {
  siret: string
  siren: string
  name: string
  naf: string | null
  legal_form: string | null
  headcount: string | null
  postcode: string | null
  commune: string | null
  department: string | null
  city: string | null
  address: string | null
  state: string
  created_on: string | null
  head_office: boolean
  processed_at: string
  source: string
}
async function stored(): Promise<Map<string, StoredRow>> {
  const { rows } = await pool.query<StoredRow>(
    `select siret, siren, name, naf, legal_form, headcount, postcode, commune, department, city, address, state, created_on::text as created_on,
            head_office, to_char(processed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as processed_at, source
       from public.registry_establishments where siret = any($1)`,
    [sirets],
  )
  return new Map(rows.map((row) => [row.siret, row]))
}

function expectMapped(rows: Map<string, StoredRow>) {
  expect(rows.size).toBe(ROWS)
  for (let n = 0; n < ROWS; n++) {
    const facts = stockRowFacts(n, TODAY)
    const row = rows.get(facts.siret)!
    expect(row, `row ${n}`).toMatchObject({
      siren: facts.siren,
      name: facts.name,
      naf: facts.naf,
      legal_form: null,
      headcount: facts.headcount,
      postcode: facts.place.postcode,
      commune: facts.place.commune,
      department: facts.place.department,
      city: facts.place.city,
      state: facts.closed ? 'F' : 'A',
      created_on: facts.createdOn,
      head_office: n % 3 === 0,
      processed_at: facts.processedAt,
      source: 'stock',
    })
    // Partial diffusion: no street address (the file masks it), the rest of the row kept.
    expect(row.address, `row ${n}`).toBe(facts.partial ? null : `${1 + (n % 120)} RUE DE LA "PAIX", ${n % 50}`)
  }
}

describe('loading the stock', () => {
  it('loads every row of a CSV with the mapping, in batches, reporting progress', async () => {
    const batches: number[] = []
    const summary = await loadEstablishmentStock(db, csv, { batchSize: 700, onProgress: (progress) => batches.push(progress.rows) })
    expect(summary).toMatchObject({ rows: ROWS, written: ROWS, rejected: 0 })
    // 3000 rows in batches of 700: five writes, each reported once the batch is stored.
    expect(batches).toHaveLength(5)
    expectMapped(await stored())
    const sample = (await stored()).get(stockRowFacts(0, TODAY).siret)!
    expect(sample.headcount).toBeNull() // "NN"
  })

  it('reads the gzip and the zip editions the same', async () => {
    expect(await loadEstablishmentStock(db, gz)).toMatchObject({ rows: ROWS, written: ROWS })
    expectMapped(await stored())
    await pool.query('delete from public.registry_establishments where siret = any($1)', [sirets])
    expect(await loadEstablishmentStock(db, zip)).toMatchObject({ rows: ROWS, written: ROWS })
    expectMapped(await stored())
  })

  it('changes nothing when the same file is loaded again', async () => {
    await loadEstablishmentStock(db, csv)
    const before = await pool.query('select siret, imported_at from public.registry_establishments where siret = any($1) order by siret', [sirets])
    expect(await loadEstablishmentStock(db, gz)).toMatchObject({ rows: ROWS, written: 0 })
    const after = await pool.query('select siret, imported_at from public.registry_establishments where siret = any($1) order by siret', [sirets])
    expect(after.rows).toEqual(before.rows)
  })

  it('keeps what a fresher flux stored, and replaces what an older one did', async () => {
    const fresher = stockRowFacts(4, TODAY)
    const older = stockRowFacts(5, TODAY)
    const flux = (facts: typeof fresher, processedAt: string) => ({
      siret: facts.siret, siren: facts.siren, name: 'NOM DU FLUX', naf: '10.71C', legalForm: '5499', headcount: '11', postcode: '69001', commune: '69381',
      city: 'LYON 1ER', address: '1 RUE DU FLUX', state: 'A' as const, createdOn: facts.createdOn, headOffice: true, processedAt,
    })
    await upsertEstablishments(db, [flux(fresher, '2026-12-02T10:00:00Z'), flux(older, '2020-01-01T10:00:00Z')], 'flux')
    expect(await loadEstablishmentStock(db, csv)).toMatchObject({ rows: ROWS, written: ROWS - 1 })
    const rows = await stored()
    expect(rows.get(fresher.siret)).toMatchObject({ name: 'NOM DU FLUX', legal_form: '5499', source: 'flux', department: '69', processed_at: '2026-12-02T10:00:00' })
    expect(rows.get(older.siret)).toMatchObject({ name: older.name, legal_form: null, source: 'stock' })
  })

  it('counts the rows it cannot store and loads the others', async () => {
    const bad = path.join(dir, 'bad-rows.csv')
    const broken = STOCK_HEADER.map((column) => (column === 'siret' ? '123' : column === 'etatAdministratifEtablissement' ? 'A' : '')).join(',')
    await writeStockFile(bad, 10, { today: TODAY, extraLines: [broken] })
    expect(await loadEstablishmentStock(db, bad)).toMatchObject({ rows: 11, written: 10, rejected: 1 })
  })
})

describe('completing from StockUniteLegale (--legal-units)', () => {
  it('fills the legal form and, where the establishment had no name, the company\'s; a second run writes nothing; flux rows untouched', async () => {
    const units = path.join(dir, 'StockUniteLegale_utf8.csv')
    const header = 'siren,statutDiffusionUniteLegale,unitePurgeeUniteLegale,dateCreationUniteLegale,sigleUniteLegale,prenom1UniteLegale,prenomUsuelUniteLegale,nomUniteLegale,nomUsageUniteLegale,denominationUniteLegale,categorieJuridiqueUniteLegale'
    const lines = Array.from({ length: ROWS }, (_, n) => {
      const { siren } = stockRowFacts(n, TODAY)
      return n % 2 === 0 ? `${siren},O,,2020-01-01,,,,,,"SOCIETE ${n}, SAS",5710` : `${siren},O,,2020-01-01,,JEANNE,,MARTIN,,,1000`
    })
    fs.writeFileSync(units, `${header}\n${lines.join('\n')}\n999,O,,,,,,,,,5710\n`)
    const fresher = stockRowFacts(4, TODAY)
    await upsertEstablishments(db, [{ siret: fresher.siret, siren: fresher.siren, name: 'NOM DU FLUX', naf: null, legalForm: '5499', headcount: null, postcode: null, commune: null, city: null, address: null, state: 'A', createdOn: null, headOffice: false, processedAt: '2026-12-02T10:00:00Z' }], 'flux')
    await loadEstablishmentStock(db, csv)

    expect(await loadLegalUnits(db, units, { batchSize: 1_000 })).toMatchObject({ rows: ROWS + 1, written: ROWS - 1, rejected: 1 })
    const rows = await stored()
    for (const n of [0, 1, 3, 28]) {
      const facts = stockRowFacts(n, TODAY)
      const company = n % 2 === 0 ? `SOCIETE ${n}, SAS` : 'JEANNE MARTIN'
      expect(rows.get(facts.siret), `row ${n}`).toMatchObject({ legal_form: n % 2 === 0 ? '5710' : '1000', name: facts.partial ? company : facts.name })
    }
    expect(stockRowFacts(3, TODAY).partial).toBe(true)
    expect(rows.get(fresher.siret)).toMatchObject({ name: 'NOM DU FLUX', legal_form: '5499', source: 'flux' })
    expect(await loadLegalUnits(db, units)).toMatchObject({ written: 0 })
  })

  it('refuses a file that is not StockUniteLegale', async () => {
    await expect(loadLegalUnits(db, csv)).rejects.toThrow(/not a StockUniteLegale CSV: missing column\(s\) categorieJuridiqueUniteLegale/)
  })
})

describe('files that are not the stock', () => {
  const refusal = async (name: string, content: string | Buffer) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, content)
    return loadEstablishmentStock(db, file).then(
      () => null,
      (error: unknown) => error,
    )
  }

  it('names the required columns a CSV lacks', async () => {
    const error = await refusal('unites.csv', 'siren,statutDiffusionUniteLegale,dateCreationUniteLegale\n123456789,O,2020-01-01\n')
    expect(error).toBeInstanceOf(StockFileError)
    expect(error).toMatchObject({ problem: 'missing_columns' })
    expect((error as Error).message).toMatch(/missing column\(s\) siret, dateCreationEtablissement, etatAdministratifEtablissement/)
  })

  it('says when the file is separated by semicolons', async () => {
    const error = await refusal('semicolons.csv', 'siren;siret;dateCreationEtablissement;etatAdministratifEtablissement\n')
    expect((error as Error).message).toMatch(/separated by ";"/)
  })

  it('refuses a binary file, an empty one, a damaged gzip and a zip without a CSV', async () => {
    expect(await refusal('random.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256)))).toBeInstanceOf(StockFileError)
    expect(await refusal('empty.csv', '')).toMatchObject({ problem: 'not_csv' })
    expect(await refusal('damaged.csv.gz', Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(100, 7)]))).toMatchObject({ problem: 'unreadable' })
    expect(await refusal('notice.zip', zipOf([{ name: 'LISEZMOI.txt', data: Buffer.from('notice') }]))).toMatchObject({ problem: 'not_csv' })
  })

  it('refuses Parquet, saying so', async () => {
    const error = await refusal('StockEtablissement.parquet', Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), Buffer.from('PAR1')]))
    expect(error).toMatchObject({ problem: 'parquet' })
    expect((error as Error).message).toMatch(/Parquet: not supported/)
  })
})

describe('npm run registry:load', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/registry-load.ts', ...args], { env: { ...process.env, DATABASE_URL: inject('databaseUrl') }, encoding: 'utf8', timeout: 60_000 })

  it('loads a file and prints its summary; exit 1 on a file that is not the stock, 2 on Parquet or no file', async () => {
    const units = path.join(dir, 'units-cli.csv')
    fs.writeFileSync(units, `siren,categorieJuridiqueUniteLegale,denominationUniteLegale\n${stockRowFacts(3, TODAY).siren},5499,SOCIETE TROIS\n`)
    const done = run(gz, '--legal-units', units, '--batch', '1000')
    expect(done.stderr).toBe('')
    expect(done.status).toBe(0)
    expect(done.stdout).toMatch(/Done in [\d.]+ s: 3,000 rows, 3,000 written, 0 left as stored/)
    expect(done.stdout).toMatch(/Done in [\d.]+ s: 1 legal units, 1 establishments completed, 0 rejected/)
    expect((await stored()).size).toBe(ROWS)
    expect((await stored()).get(stockRowFacts(3, TODAY).siret)).toMatchObject({ name: 'SOCIETE TROIS', legal_form: '5499' })

    const missing = path.join(dir, 'missing.csv')
    fs.writeFileSync(missing, 'a,b\n1,2\n')
    expect(run(missing)).toMatchObject({ status: 1, stderr: expect.stringMatching(/missing column\(s\) siret/) })
    const parquet = path.join(dir, 'stock.parquet')
    fs.writeFileSync(parquet, 'PAR1....PAR1')
    expect(run(parquet)).toMatchObject({ status: 2, stderr: expect.stringMatching(/Parquet: not supported/) })
    expect(run()).toMatchObject({ status: 2, stderr: expect.stringMatching(/Usage/) })
  }, 60_000)
})
