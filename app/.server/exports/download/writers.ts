// The file formats of a download: rows in, the file's bytes out, with backpressure (see download.ts).
import { setTimeout as sleep } from 'node:timers/promises'
import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import ExcelJS from 'exceljs'
import { formatCsvNumber, type CsvDialect } from '#app/domain/csv-format.ts'
import { SHEET_NAME, type Cell, type Column, type DownloadLang } from './columns.ts'
import { neutralizeFormula } from './formulas.ts'

/** Chunks handed to the consumer are coalesced to about this size. */
export const CHUNK_BYTES = 64 * 1024
/** XLSX: bytes allowed to wait between exceljs and the consumer before row production pauses. */
const XLSX_BACKLOG_BYTES = 4 * 1024 * 1024
const XLSX_CHECK_EVERY_ROWS = 100
const XLSX_POLL_MS = 5

export interface FormatWriter {
  /** The file's bytes. */
  output: Readable
  /** Adds one record; a promise when the caller must wait (backpressure). */
  write(cells: Cell[]): Promise<void> | undefined
  /** Writes the end of the file. */
  end(): Promise<void>
  destroy(error?: Error): void
}

export function csvWriter(columns: Column[], dialect: CsvDialect, stop: AbortSignal): FormatWriter {
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

export function xlsxWriter(columns: Column[], lang: DownloadLang, stop: AbortSignal): FormatWriter {
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
function csvCell(cell: Cell, dialect: Pick<CsvDialect, 'decimalMark'>): string | null {
  if (typeof cell === 'number') return formatCsvNumber(cell, dialect)
  return cell === null ? null : neutralizeFormula(cell)
}

/** Text is neutralised (CSV and XLSX alike) and written as text; numbers stay numbers. */
export function safeCell(cell: Cell): string | number | null {
  return typeof cell === 'string' ? neutralizeFormula(cell) : cell
}
