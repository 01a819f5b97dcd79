/**
 * The optional bulk load of INSEE's monthly StockEtablissement file into registry_establishments (`npm run
 * registry:load FILE`, scripts/registry-load.ts), for deployments that want the full local index.
 *
 * Bounded memory: the file is streamed (stock-file.ts) through csv-parse and written in batches with
 * upsertEstablishments(…, 'stock'). The parser is read with `for await`, so it stops reading while a batch is
 * written; one batch is parsed while the previous one is written (never more), so the file never gets ahead of the
 * database by more than a batch. The store keeps the newest processing: a stock older than the flux leaves the
 * flux's rows as they are, and loading the same file twice writes nothing the second time.
 */
import { parse, CsvError } from 'csv-parse'
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import {
  legalUnitColumnIndex,
  legalUnitFacts,
  STOCK_REQUIRED_COLUMNS,
  stockColumnIndex,
  stockRecord,
  type LegalUnitColumnIndex,
  type LegalUnitFacts,
  type StockColumnIndex,
} from '#app/domain/sirene-stock-row.ts'
import { upsertEstablishments } from './store.ts'
import { openStockFile, StockFileError } from './stock-file.ts'

export interface StockLoadProgress {
  /** Data rows read so far (the header excluded). */
  rows: number
  /** Rows inserted or updated (a row the store already had as fresh or fresher is not). */
  written: number
  /** Rows that cannot be stored: no valid SIRET (SIREN), or a state other than A/F. */
  rejected: number
  seconds: number
}

export interface StockLoadOptions {
  /** Rows per batch written (default 5 000). */
  batchSize?: number
  /** Called after every batch written. */
  onProgress?: (progress: StockLoadProgress) => void
}

/** A row past this is no stock row: a binary file or a missing quote would otherwise be read as one huge field. */
const MAX_RECORD_BYTES = 1024 * 1024

function csvRows(input: NodeJS.ReadableStream) {
  const parser = parse({ delimiter: ',', bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_RECORD_BYTES })
  input.once('error', (error) => parser.destroy(error))
  return input.pipe(parser)
}

type HeaderCheck = { ok: true } | { ok: false; missing: string[] }

function checkHeader(columns: string[], found: HeaderCheck, file: string, kind: string, required: readonly string[]): void {
  if (found.ok) return
  const seen = columns.slice(0, 5).join(',').slice(0, 120)
  const hint = columns.length === 1 && columns[0]!.includes(';') ? ' (it is separated by ";": INSEE\'s stock uses ",")' : ''
  throw new StockFileError('missing_columns', `${file} is not a ${kind} CSV${hint}: missing column(s) ${found.missing.join(', ')} (needs ${required.join(', ')}; header starts "${seen}")`)
}

interface BatchLoad<T> {
  /** The row reader for this header; throws StockFileError when the header is not the file's kind. */
  reader(header: string[]): (row: string[]) => T | null
  write(batch: T[]): Promise<number>
}

/** Streams `file`'s rows through `load.reader`, writing batches with `load.write`, one batch ahead at most. */
async function loadInBatches<T>(file: string, load: BatchLoad<T>, options: StockLoadOptions): Promise<StockLoadProgress> {
  const batchSize = options.batchSize ?? 5_000
  const started = performance.now()
  const progress: StockLoadProgress = { rows: 0, written: 0, rejected: 0, seconds: 0 }
  let read: ((row: string[]) => T | null) | undefined
  let batch: T[] = []
  let writing: Promise<void> = Promise.resolve()
  const flush = async (records: T[]) => {
    await writing
    writing = load.write(records).then((written) => {
      progress.written += written
      progress.seconds = (performance.now() - started) / 1000
      options.onProgress?.({ ...progress })
    })
    // Seen by the next flush or the end; a failed write must not go unhandled meanwhile.
    writing.catch(() => {})
  }
  const rows = csvRows(await openStockFile(file))
  try {
    for await (const row of rows as AsyncIterable<string[]>) {
      if (!read) {
        read = load.reader(row)
        continue
      }
      progress.rows++
      const record = read(row)
      if (record === null) progress.rejected++
      else if (batch.push(record) >= batchSize) {
        await flush(batch)
        batch = []
      }
    }
  } catch (error) {
    rows.destroy()
    await writing.catch(() => {})
    if (error instanceof CsvError) throw new StockFileError('not_csv', `${file} is not a readable CSV (${error.message})`)
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new StockFileError('unreadable', `${file} is a damaged archive (${(error as Error).message})`)
    throw error
  }
  if (!read) throw new StockFileError('not_csv', `${file} is empty`)
  if (batch.length) await flush(batch)
  await writing
  progress.seconds = (performance.now() - started) / 1000
  return progress
}

/** Loads the stock file at `file` into the store; what it read and wrote. Throws StockFileError on a file it cannot read. */
export function loadEstablishmentStock(db: Kysely<Database>, file: string, options: StockLoadOptions = {}): Promise<StockLoadProgress> {
  return loadInBatches<RegistryEstablishmentRecord>(
    file,
    {
      reader(header) {
        const found = stockColumnIndex(header)
        checkHeader(header, found, file, 'StockEtablissement', STOCK_REQUIRED_COLUMNS)
        const index = (found as { index: StockColumnIndex }).index
        return (row) => stockRecord(row, index)
      },
      write: (records) => upsertEstablishments(db, records, 'stock'),
    },
    options,
  )
}

/**
 * Completes the stock's establishments from StockUniteLegale at `file` (`--legal-units`): the legal form, and the
 * company's name where the establishment had none (as the flux names it). Only rows the stock wrote are touched (the
 * flux's carry their unité légale already), and only when something changes, so a second run writes nothing.
 * `written` counts establishments updated.
 */
export function loadLegalUnits(db: Kysely<Database>, file: string, options: StockLoadOptions = {}): Promise<StockLoadProgress> {
  return loadInBatches<LegalUnitFacts>(
    file,
    {
      reader(header) {
        const found = legalUnitColumnIndex(header)
        checkHeader(header, found, file, 'StockUniteLegale', ['siren', 'categorieJuridiqueUniteLegale'])
        const index = (found as { index: LegalUnitColumnIndex }).index
        return (row) => legalUnitFacts(row, index)
      },
      write: async (units) => {
        const result = await sql`
          update public.registry_establishments e
             set legal_form = v.legal_form, name = case when e.name = '' then v.name else e.name end
            from unnest(${units.map((u) => u.siren)}::text[], ${units.map((u) => u.legalForm)}::text[], ${units.map((u) => u.name)}::text[]) as v(siren, legal_form, name)
           where e.siren = v.siren and e.source = 'stock'
             and (e.legal_form is distinct from v.legal_form or (e.name = '' and v.name <> ''))`.execute(db)
        return Number(result.numAffectedRows ?? 0)
      },
    },
    options,
  )
}
