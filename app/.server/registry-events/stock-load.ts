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
import type { Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { STOCK_REQUIRED_COLUMNS, stockColumnIndex, stockRecord, type StockColumnIndex } from '#app/domain/sirene-stock-row.ts'
import { upsertEstablishments } from './store.ts'
import { openStockFile, StockFileError } from './stock-file.ts'

export interface StockLoadProgress {
  /** Data rows read so far (the header excluded). */
  rows: number
  /** Rows inserted or updated (a row the store already had as fresh or fresher is not). */
  written: number
  /** Rows that cannot be stored: no valid SIRET, or a state other than A/F. */
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

function headerIndex(header: unknown, file: string): StockColumnIndex {
  const columns = Array.isArray(header) ? (header as string[]) : []
  const found = stockColumnIndex(columns)
  if (found.ok) return found.index
  const seen = columns.slice(0, 5).join(',').slice(0, 120)
  const hint = columns.length === 1 && columns[0]!.includes(';') ? ' (it is separated by ";": INSEE\'s stock uses ",")' : ''
  throw new StockFileError('missing_columns', `${file} is not a StockEtablissement CSV${hint}: missing column(s) ${found.missing.join(', ')} (needs ${STOCK_REQUIRED_COLUMNS.join(', ')}; header starts "${seen}")`)
}

/** Loads the stock file at `file` into the store; what it read and wrote. Throws StockFileError on a file it cannot read. */
export async function loadEstablishmentStock(db: Kysely<Database>, file: string, options: StockLoadOptions = {}): Promise<StockLoadProgress> {
  const batchSize = options.batchSize ?? 5_000
  const started = performance.now()
  const progress: StockLoadProgress = { rows: 0, written: 0, rejected: 0, seconds: 0 }
  let index: StockColumnIndex | undefined
  let batch: RegistryEstablishmentRecord[] = []
  let writing: Promise<void> = Promise.resolve()
  const flush = async (records: RegistryEstablishmentRecord[]) => {
    await writing
    writing = upsertEstablishments(db, records, 'stock').then((written) => {
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
      if (!index) {
        index = headerIndex(row, file)
        continue
      }
      progress.rows++
      const record = stockRecord(row, index)
      if (!record) progress.rejected++
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
  if (!index) throw new StockFileError('not_csv', `${file} is empty`)
  if (batch.length) await flush(batch)
  await writing
  progress.seconds = (performance.now() - started) / 1000
  return progress
}
