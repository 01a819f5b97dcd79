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
import type { Readable } from 'node:stream'
import type { InferResult, Kysely, Transaction } from 'kysely'
import type pg from 'pg'
import QueryStream from 'pg-query-stream'
import { withRisksBatched } from '#app/.server/registry-events/lead-risks.ts'
import { csvDialect, type CsvDialect, type CsvSeparator } from '#app/domain/csv-format.ts'
import { DEFAULT_DOWNLOAD_PRESET, isDownloadPreset, type DownloadPreset } from '#app/domain/download-presets.ts'
import { exportFileName } from '#app/domain/file-names.ts'
import { applyUserClaims, getDb, getPool, type Database, type UserClaims } from '#app/.server/db.ts'
import { exportColumns, rowCells, withListColumns, type Column, type DownloadLang, type LeadExportRow } from './download/columns.ts'
import { CHUNK_BYTES, csvWriter, xlsxWriter, type FormatWriter } from './download/writers.ts'
import { LEAD_ROW_SELECT } from './lead-select.ts'
import { isUuid } from '#app/domain/ids.ts'
import { isEmailFilter, validEmailsOnly, type EmailFilter } from '#app/domain/email-quality.ts'

export type DownloadFormat = 'csv' | 'xlsx'
export type { DownloadLang } from './download/columns.ts'

const DOWNLOAD_CONTENT_TYPES: Record<DownloadFormat, string> = {
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

/** The answer's headers of a download: the export page's buttons and the API's file give the same. */
export function downloadHeaders(file: Pick<ExportDownload, 'fileName' | 'contentType'>): Record<string, string> {
  return {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.fileName}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  }
}

/**
 * Rows per cursor fetch. pg parses a whole fetch on arrival, and those rows outlive young-generation
 * GCs while the file is written (exceljs makes a lot of garbage per row), which makes V8 grow its
 * young generation. bench/download.ts (100 000 leads x 39 columns), peak RSS CSV / XLSX: batch
 * 1 000: 313 / 321 MB; 100: 228 / 286-294 MB; 50: 227 / 234-279 MB. pg-query-stream asks for the
 * next fetch as soon as its buffer drops below one batch, so round trips overlap with writing.
 */
export const BATCH_SIZE = 50
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
 * decimal commas in French); `preset` the columns (app/domain/download-presets.ts; default: all);
 * `emails` 'valid' keeps only the addresses verified valid (app/domain/email-quality.ts; default 'all');
 * `now` dates the file name (default: the current time, UTC day).
 */
export async function openExportDownload(args: {
  claims: UserClaims
  exportId: string
  format: DownloadFormat
  now?: Date
  lang?: DownloadLang
  separator?: CsvSeparator
  preset?: DownloadPreset
  emails?: EmailFilter
  signal?: AbortSignal
  /** Rows per cursor fetch (default BATCH_SIZE); for benchmarks. */
  batchSize?: number
}): Promise<ExportDownload | null> {
  const { claims, exportId, format, now = new Date(), lang = 'en', separator, preset = DEFAULT_DOWNLOAD_PRESET, emails = 'all', signal, batchSize = BATCH_SIZE } = args
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('openExportDownload: batchSize must be a positive integer')
  if (format !== 'csv' && format !== 'xlsx') throw new Error(`openExportDownload: unknown format "${String(format)}"`)
  if (lang !== 'en' && lang !== 'fr') throw new Error(`openExportDownload: unknown lang "${String(lang)}"`)
  const dialect = csvDialect(separator, lang)
  if (!dialect) throw new Error(`openExportDownload: unknown separator "${String(separator)}"`)
  if (!isDownloadPreset(preset)) throw new Error(`openExportDownload: unknown preset "${String(preset)}"`)
  if (!isEmailFilter(emails)) throw new Error(`openExportDownload: unknown emails filter "${String(emails)}"`)
  if (!isUuid(exportId)) return null
  signal?.throwIfAborted()

  const client = await getPool().connect()
  const end = transactionEnd(client)
  let found: { name: string; enrichment_options: unknown; list_headers: string[] | null } | undefined
  try {
    await client.query(BEGIN_SQL)
    await applyUserClaims(client, claims)
    const query = getDb()
      .selectFrom('exports as e')
      .leftJoin('lists as li', 'li.id', 'e.list_id')
      .select(['e.name', 'e.enrichment_options', 'li.headers as list_headers'])
      .where('e.id', '=', exportId)
      .compile()
    found = (await client.query<{ name: string; enrichment_options: unknown; list_headers: string[] | null }>(query.sql, [...query.parameters])).rows[0]
  } catch (error) {
    await end(false).catch(() => {})
    throw error
  }
  if (!found) {
    await end(false)
    return null
  }

  const chosen = emails === 'valid' ? keepValidEmails(exportColumns(found.enrichment_options, lang, preset)) : exportColumns(found.enrichment_options, lang, preset)
  const columns = found.list_headers ? withListColumns(chosen, found.list_headers, lang) : chosen
  return {
    fileName: exportFileName(found.name, now, format),
    contentType: DOWNLOAD_CONTENT_TYPES[format],
    body: leadStream({ client, end, exportId, columns, format, lang, dialect, signal, batchSize }),
  }
}

/** Every column reads the row with its valid addresses only (filtered once per row). */
function keepValidEmails(columns: Column[]): Column[] {
  const filtered = new WeakMap<LeadExportRow, LeadExportRow>()
  const rowOf = (row: LeadExportRow): LeadExportRow => {
    let kept = filtered.get(row)
    if (!kept) filtered.set(row, (kept = validEmailsOnly(row)))
    return kept
  }
  return columns.map((column) => ({ ...column, value: (row) => column.value(rowOf(row)) }))
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
    .select([...LEAD_ROW_SELECT, 'el.list_cells', 'el.list_match'])
    .where('el.export_id', '=', exportId)
    .orderBy('el.position')
    .orderBy('el.lead_id')
}
// Compile-time check: the selected row is what the column mappers read.
type LeadsQueryRow = InferResult<ReturnType<typeof exportLeadsQuery>>[number]
true satisfies LeadsQueryRow extends LeadExportRow ? true : false

interface LeadFile {
  client: pg.PoolClient
  end: (commit: boolean) => Promise<void>
  exportId: string
  columns: Column[]
  format: DownloadFormat
  lang: DownloadLang
  dialect: CsvDialect
  batchSize: number
}

/**
 * The file's bytes, produced as they are pulled; the transaction ends with the last one. `stop` (the download
 * stopped early for any reason) stops the cursor and the writer.
 */
async function* fileChunks(file: LeadFile, stop: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
  const { client, end, exportId, columns, format, lang, dialect, batchSize } = file
  const query = exportLeadsQuery(exportId).compile()
  const rows = client.query(new QueryStream(query.sql, [...query.parameters], { batchSize }))
  const writer = format === 'csv' ? csvWriter(columns, dialect, stop) : xlsxWriter(columns, lang, stop)
  const onStop = () => {
    rows.destroy()
    writer.destroy()
  }
  stop.addEventListener('abort', onStop, { once: true })
  const feeding = feed(rows, writer, columns)
  feeding.catch(() => {}) // awaited below; this only keeps an early failure from going unhandled
  let completed = false
  try {
    for await (const chunk of coalesce(writer.output, CHUNK_BYTES)) yield chunk
    await feeding
    completed = true
  } finally {
    stop.removeEventListener('abort', onStop)
    // Not awaiting `feeding` here: a destroyed writer may never settle it. Destroying the
    // cursor is enough for the client: pg runs the rollback after the cursor's close.
    if (!completed) onStop()
    await end(completed)
  }
}

/** The file as a pull stream the consumer (or `signal`) may cancel at any time. */
function leadStream({ signal, ...file }: LeadFile & { signal: AbortSignal | undefined }): ReadableStream<Uint8Array> {
  const stop = new AbortController()
  const iterator = fileChunks(file, stop.signal)
  const cancel = async (reason?: unknown) => {
    stop.abort(reason)
    await iterator.return().catch(() => {})
    await file.end(false).catch(() => {}) // when the generator never started, its finally never runs
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
    for await (const row of withRisksBatched(rows as AsyncIterable<LeadExportRow>)) {
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
