// Export download (SPEC §7 "GET {exports base}/{id}/download", ARCHITECTURE §5 item 5).
//
// Runs as the signed-in user: a dedicated pooled client opens a read-only, repeatable-read
// transaction with the user's claims (applyUserClaims, the settings of withUser), so RLS decides
// whether the export exists for this user: another user's export and an unknown id both give null
// (the route answers 404 "Export not found"). The export's leads are then streamed in position
// order from a server-side cursor (pg-query-stream, BATCH_SIZE rows a fetch) into csv-stringify or
// exceljs' streaming WorkbookWriter, pulled by the consumer of the returned ReadableStream: memory
// stays flat whatever the number of leads (bench/download.ts: 100 000 leads).
//
// The transaction ends when the stream does: commit + release once the last byte is produced
// (before the consumer sees the end), rollback + release when production fails or the consumer
// cancels (ReadableStream.cancel(), which React Router does when the client goes away, or the
// optional `signal`, e.g. request.signal). A consumer that stalls without cancelling holds the
// connection until Postgres' idle_in_transaction_session_timeout (set per transaction below)
// closes it; the stream then errors and the client is discarded.
import { setTimeout as sleep } from 'node:timers/promises'
import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import ExcelJS from 'exceljs'
import type { InferResult, Kysely, Transaction } from 'kysely'
import type pg from 'pg'
import QueryStream from 'pg-query-stream'
import { csvDialect, formatCsvNumber, type CsvDialect, type CsvSeparator } from '#app/domain/csv-format.ts'
import { exportFileName } from '#app/domain/file-names.ts'
import { applyUserClaims, getDb, getPool, type Database, type UserClaims } from '#app/.server/db.ts'
import { exportColumns, rowCells, SHEET_NAME, type Cell, type Column, type DownloadLang, type LeadExportRow } from './download/columns.ts'
import { neutralizeFormula } from './download/formulas.ts'
import { isUuid } from '#app/domain/ids.ts'

export type DownloadFormat = 'csv' | 'xlsx'
export type { DownloadLang } from './download/columns.ts'

export const DOWNLOAD_CONTENT_TYPES: Record<DownloadFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export interface ExportDownload {
  /** SPEC §5, e.g. "boulangeries_paris_11e__2026-11-22.csv"; only [a-z0-9_.-]. */
  fileName: string
  contentType: string
  /** The file. Read it to the end, or cancel it: either ends the transaction and frees the client. */
  body: ReadableStream<Uint8Array>
}

/**
 * Rows per cursor fetch. pg parses a whole fetch on arrival, and those rows outlive young-generation
 * GCs while the file is written (exceljs makes a lot of garbage per row), which makes V8 grow its
 * young generation. bench/download.ts (100 000 leads x 39 columns), peak RSS CSV / XLSX: batch
 * 1 000: 313 / 321 MB; 100: 228 / 286-294 MB; 50: 227 / 234-279 MB. pg-query-stream asks for the
 * next fetch as soon as its buffer drops below one batch, so round trips overlap with writing.
 */
export const BATCH_SIZE = 50
/** Chunks handed to the consumer are coalesced to about this size. */
const CHUNK_BYTES = 64 * 1024
/** XLSX: bytes allowed to wait between exceljs and the consumer before row production pauses. */
const XLSX_BACKLOG_BYTES = 4 * 1024 * 1024
const XLSX_CHECK_EVERY_ROWS = 100
const XLSX_POLL_MS = 5
/** A stalled consumer holds a connection at most this long between two cursor reads. */
const IDLE_IN_TRANSACTION_MS = 5 * 60 * 1000

// One snapshot for the export row and all its leads, even while a worker keeps writing.
const BEGIN_SQL = `begin isolation level repeatable read read only; select set_config('idle_in_transaction_session_timeout', '${IDLE_IN_TRANSACTION_MS}', true)`

/**
 * Opens the download of one export as the signed-in user. Null when the user cannot see such an
 * export (unknown id, malformed id, or another user's: RLS hides it). Throws, without holding a
 * connection, when the claims are not a user's or the database fails before the stream starts.
 *
 * `lang` picks the header labels and status texts written in the file (default 'en');
 * `separator` the CSV dialect (app/domain/csv-format.ts; default: the one of `lang`, so ";" and
 * decimal commas in French); `now` dates the file name (default: the current time, UTC day).
 */
export async function openExportDownload(args: {
  claims: UserClaims
  exportId: string
  format: DownloadFormat
  now?: Date
  lang?: DownloadLang
  separator?: CsvSeparator
  signal?: AbortSignal
  /** Rows per cursor fetch (default BATCH_SIZE); for benchmarks. */
  batchSize?: number
}): Promise<ExportDownload | null> {
  const { claims, exportId, format, now = new Date(), lang = 'en', separator, signal, batchSize = BATCH_SIZE } = args
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('openExportDownload: batchSize must be a positive integer')
  if (format !== 'csv' && format !== 'xlsx') throw new Error(`openExportDownload: unknown format "${String(format)}"`)
  if (lang !== 'en' && lang !== 'fr') throw new Error(`openExportDownload: unknown lang "${String(lang)}"`)
  const dialect = csvDialect(separator, lang)
  if (!dialect) throw new Error(`openExportDownload: unknown separator "${String(separator)}"`)
  if (!isUuid(exportId)) return null
  signal?.throwIfAborted()

  const client = await getPool().connect()
  const end = transactionEnd(client)
  let found: { name: string; enrichment_options: unknown } | undefined
  try {
    await client.query(BEGIN_SQL)
    await applyUserClaims(client, claims)
    const query = getDb().selectFrom('exports').select(['name', 'enrichment_options']).where('id', '=', exportId).compile()
    found = (await client.query<{ name: string; enrichment_options: unknown }>(query.sql, [...query.parameters])).rows[0]
  } catch (error) {
    await end(false).catch(() => {})
    throw error
  }
  if (!found) {
    await end(false)
    return null
  }

  const columns = exportColumns(found.enrichment_options, lang)
  return {
    fileName: exportFileName(found.name, now, format),
    contentType: DOWNLOAD_CONTENT_TYPES[format],
    body: leadStream({ client, end, exportId, columns, format, lang, dialect, signal, batchSize }),
  }
}

// ---------------------------------------------------------------------------
// Transaction end

/**
 * commit/rollback then release, once (later calls share the first outcome). A client whose
 * connection failed, or whose rollback fails, is destroyed instead of going back to the pool.
 */
function transactionEnd(client: pg.PoolClient): (commit: boolean) => Promise<void> {
  let clientError: Error | undefined
  // A checked-out client has no pool error listener: without one, a dropped connection would
  // crash the process. The failure also reaches the running query, which ends the download.
  const onError = (error: Error) => {
    clientError ??= error
  }
  client.on('error', onError)
  let ending: Promise<void> | undefined
  return (commit) =>
    (ending ??= (async () => {
      try {
        if (clientError) throw clientError
        await client.query(commit ? 'commit' : 'rollback')
      } catch (error) {
        client.removeListener('error', onError)
        client.release(error instanceof Error ? error : new Error(String(error)))
        if (commit) throw error
        return
      }
      client.removeListener('error', onError)
      client.release()
    })())
}

// ---------------------------------------------------------------------------
// Streaming

/**
 * The leads of one export in file order, with the per-type statuses of that export. Run it as
 * the user (withUser / applyUserClaims): RLS, not this query, keeps other users' rows out.
 */
export function exportLeadsQuery(exportId: string, db: Kysely<Database> | Transaction<Database> = getDb()) {
  return db
    .selectFrom('export_leads as el')
    .innerJoin('leads as l', 'l.id', 'el.lead_id')
    .select([
      'l.name',
      'l.full_address',
      'l.city',
      'l.postal_code',
      'l.country_code',
      'l.phone',
      'l.website',
      'l.latitude',
      'l.longitude',
      'l.rating',
      'l.review_count',
      'l.business_types',
      'l.google_maps_url',
      'l.working_hours',
      'l.operational_state',
      'l.description',
      'l.place_id',
      'l.source',
      'l.email',
      'l.technologies',
      'l.social_media',
      'l.admin_fr_info',
      'el.phone_status',
      'el.website_status',
      'el.email_status',
      'el.technologies_status',
      'el.social_media_status',
      'el.admin_fr_info_status',
    ])
    .where('el.export_id', '=', exportId)
    .orderBy('el.position')
    .orderBy('el.lead_id')
}
// Compile-time check: the selected row is what the column mappers read.
type LeadsQueryRow = InferResult<ReturnType<typeof exportLeadsQuery>>[number]
true satisfies LeadsQueryRow extends LeadExportRow ? true : false

interface FormatWriter {
  /** The file's bytes. */
  output: Readable
  /** Adds one record; a promise when the caller must wait (backpressure). */
  write(cells: Cell[]): Promise<void> | undefined
  /** Writes the end of the file. */
  end(): Promise<void>
  destroy(error?: Error): void
}

function leadStream({
  client,
  end,
  exportId,
  columns,
  format,
  lang,
  dialect,
  signal,
  batchSize,
}: {
  client: pg.PoolClient
  end: (commit: boolean) => Promise<void>
  exportId: string
  columns: Column[]
  format: DownloadFormat
  lang: DownloadLang
  dialect: CsvDialect
  signal: AbortSignal | undefined
  batchSize: number
}): ReadableStream<Uint8Array> {
  // Aborted when the download stops early for any reason: stops the cursor and the writer.
  const stop = new AbortController()

  async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    const query = exportLeadsQuery(exportId).compile()
    const rows = client.query(new QueryStream(query.sql, [...query.parameters], { batchSize }))
    const writer = format === 'csv' ? csvWriter(columns, dialect, stop.signal) : xlsxWriter(columns, lang, stop.signal)
    const onStop = () => {
      rows.destroy()
      writer.destroy()
    }
    stop.signal.addEventListener('abort', onStop, { once: true })
    const feeding = feed(rows, writer, columns)
    feeding.catch(() => {}) // awaited below; this only keeps an early failure from going unhandled
    let completed = false
    try {
      for await (const chunk of coalesce(writer.output, CHUNK_BYTES)) yield chunk
      await feeding
      completed = true
    } finally {
      stop.signal.removeEventListener('abort', onStop)
      // Not awaiting `feeding` here: a destroyed writer may never settle it. Destroying the
      // cursor is enough for the client: pg runs the rollback after the cursor's close.
      if (!completed) onStop()
      await end(completed)
    }
  }

  const iterator = chunks()
  const cancel = async (reason?: unknown) => {
    stop.abort(reason)
    await iterator.return().catch(() => {})
    await end(false).catch(() => {}) // when the generator never started, its finally never runs
  }

  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  const onAbort = () => {
    const reason: unknown = signal?.reason ?? new Error('Download aborted')
    try {
      controller?.error(reason)
    } catch {
      // already closed or errored
    }
    void cancel(reason)
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  const detach = () => signal?.removeEventListener('abort', onAbort)

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
      },
      async pull(c) {
        let result: IteratorResult<Uint8Array, void>
        try {
          result = await iterator.next()
        } catch (error) {
          detach()
          throw error
        }
        if (!result.done) return c.enqueue(result.value)
        detach()
        // A stopped download must never look like a complete (shorter) file.
        if (stop.signal.aborted) throw stop.signal.reason ?? new Error('Download stopped')
        c.close()
      },
      async cancel(reason) {
        detach()
        await cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}

/** Pushes every row into the writer, honouring its backpressure; then ends the file. */
async function feed(rows: QueryStream, writer: FormatWriter, columns: Column[]): Promise<void> {
  try {
    for await (const row of rows as AsyncIterable<LeadExportRow>) {
      const wait = writer.write(rowCells(columns, row))
      if (wait) await wait
    }
    await writer.end()
  } catch (error) {
    writer.destroy(error instanceof Error ? error : new Error(String(error)))
    throw error
  }
}

/** Joins small chunks (csv-stringify pushes one per record) into ~`size` byte ones. */
async function* coalesce(source: Readable, size: number): AsyncGenerator<Uint8Array, void, undefined> {
  let parts: Buffer[] = []
  let length = 0
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    parts.push(buffer)
    length += buffer.length
    if (length >= size) {
      yield parts.length === 1 ? parts[0]! : Buffer.concat(parts, length)
      parts = []
      length = 0
    }
  }
  if (length > 0) yield parts.length === 1 ? parts[0]! : Buffer.concat(parts, length)
}

// ---------------------------------------------------------------------------
// Formats

function csvWriter(columns: Column[], dialect: CsvDialect, stop: AbortSignal): FormatWriter {
  const stringifier = stringify({
    bom: true, // Excel reads UTF-8 only with it
    delimiter: dialect.delimiter, // csv-stringify quotes any field holding it
    header: true,
    columns: columns.map((column) => column.header),
    record_delimiter: 'windows', // RFC 4180
    // csv-stringify quotes the delimiter, quotes and "\r\n"; a lone "\n" or "\r" must be quoted too,
    // or "Shop\n=1+1" would start a new row with a formula.
    quoted_match: /[\r\n]/,
  })
  return {
    output: stringifier,
    write(cells) {
      if (stringifier.write(cells.map((cell) => csvCell(cell, dialect)))) return undefined
      return once(stringifier, 'drain', { signal: stop }).then(() => undefined)
    },
    async end() {
      stringifier.end()
    },
    destroy(error) {
      stringifier.destroy(error)
    },
  }
}

/** exceljs internals read to measure how much XML waits for the zip (see pendingBytes). */
interface SheetStreamInternals {
  buffers?: Array<{ length: number }>
  pipes?: Array<{ _writableState?: { length?: number }; _readableState?: { length?: number } }>
}

function xlsxWriter(columns: Column[], lang: DownloadLang, stop: AbortSignal): FormatWriter {
  const output = new PassThrough({ highWaterMark: CHUNK_BYTES })
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false })
  const sheet = workbook.addWorksheet(SHEET_NAME[lang], { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = columns.map((column) => ({ header: column.header, key: column.key, width: column.width }))

  // exceljs writes committed rows into a buffer that feeds the zip with no backpressure: rows
  // committed faster than the consumer reads would pile up there. So every few rows, production
  // waits while too many bytes sit between exceljs and the consumer: the sheet's own buffer, the
  // stream the zip reads it from, and our output. Everything past that is bounded by stream
  // high-water marks. Read defensively: if exceljs changes, only the output is counted.
  const sheetStream = (sheet as unknown as { stream?: SheetStreamInternals }).stream
  const pendingBytes = () => {
    let bytes = output.readableLength + output.writableLength
    for (const buffer of sheetStream?.buffers ?? []) bytes += buffer.length
    for (const pipe of sheetStream?.pipes ?? []) bytes += (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0)
    return bytes
  }
  const waitForConsumer = async () => {
    while (pendingBytes() > XLSX_BACKLOG_BYTES) await sleep(XLSX_POLL_MS, undefined, { signal: stop })
  }

  let sinceCheck = 0
  return {
    output,
    write(cells) {
      sheet.addRow(cells.map(safeCell)).commit()
      if (++sinceCheck < XLSX_CHECK_EVERY_ROWS) return undefined
      sinceCheck = 0
      return pendingBytes() > XLSX_BACKLOG_BYTES ? waitForConsumer() : undefined
    },
    async end() {
      sheet.commit()
      await workbook.commit() // resolves once the zip's last byte is in `output`
    },
    destroy(error) {
      ;(workbook as unknown as { zip?: { abort?: () => void } }).zip?.abort?.()
      output.destroy(error)
    },
  }
}

/** CSV: text neutralised as in XLSX; numbers written with the dialect's decimal mark ("4,5" for ";"). */
export function csvCell(cell: Cell, dialect: Pick<CsvDialect, 'decimalMark'>): string | null {
  if (typeof cell === 'number') return formatCsvNumber(cell, dialect)
  return cell === null ? null : neutralizeFormula(cell)
}

/** Text is neutralised (CSV and XLSX alike) and written as text; numbers stay numbers. */
export function safeCell(cell: Cell): string | number | null {
  return typeof cell === 'string' ? neutralizeFormula(cell) : cell
}
