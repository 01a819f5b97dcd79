/**
 * An uploaded list of companies, its bytes to a table: headers and rows of text, as the user sees them in their
 * spreadsheet, or a refusal of the whole file (nothing of a refused file is imported, never the first 50 000 rows of
 * a bigger one). The format is read from the content, not the name: a zip is an XLSX, any other text a CSV of any
 * delimiter in UTF-8 (BOM or not) or Windows-1252 (app/domain/csv-text.ts). Nothing is ever evaluated: an XLSX
 * formula gives the result Excel saved with it.
 */
import { isUtf8 } from 'node:buffer'
import { type CsvDelimiter, type CsvRecord, decodeCsvBytes, detectDelimiter, parseCsvRecords } from '#app/domain/csv-text.ts'
import { LIST_MAX_FILE_BYTES, LIST_MAX_ROWS, type ListFileRefusalCode } from '#app/domain/list-columns.ts'
import { readXlsxRecords } from './xlsx-sheet.ts'

export interface ParsedList {
  headers: string[]
  /** Data rows, each as wide as `headers`; blank rows and exact repeats left out. */
  rows: string[][]
  /** Where each row is in the file: the CSV line it starts on, the sheet's row number (1-based, as the file shows). */
  lines: number[]
  format: 'csv' | 'xlsx'
  delimiter?: CsvDelimiter
  encoding?: 'utf-8' | 'windows-1252'
  /** Rows left out for repeating an earlier row cell for cell. */
  duplicates: number
  /** Columns (0-based) with no value in any row. */
  emptyColumns: number[]
}

export interface ListFileRefusal {
  refused: ListFileRefusalCode
  detail?: {
    rows?: number
    maxRows?: number
    bytes?: number
    maxBytes?: number
    /** An XLSX refused as a zip bomb or too large: what its entries declare in all, and the limit. */
    uncompressedBytes?: number
    maxUncompressedBytes?: number
    /** A binary or unreadable file, when recognised: 'xls', 'xlsb', 'ods', 'pdf', 'image', 'zip'. */
    format?: string
    /** An unsupported encoding: 'utf-16', or 'invalid-utf-8' (a UTF-8 BOM before bytes that are not UTF-8). */
    encoding?: string
    /** A file without a header: its first row, which holds values. */
    firstRow?: string[]
  }
}

export interface ParseListOptions {
  maxRows?: number
  maxBytes?: number
}

interface Table {
  records: CsvRecord[]
  format: ParsedList['format']
  delimiter?: CsvDelimiter
  encoding?: ParsedList['encoding']
}

const refuse = (refused: ListFileRefusalCode, detail?: ListFileRefusal['detail']): ListFileRefusal => (detail ? { refused, detail } : { refused })

export function isListFileRefusal(result: ParsedList | ListFileRefusal): result is ListFileRefusal {
  return 'refused' in result
}

const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((byte, i) => bytes[i] === byte)
const ZIP_SIGNATURES = [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]] as const

/** What a binary file is, when its first bytes or its name say so: the refusal can tell the user what to save it as. */
function binaryFormat(bytes: Uint8Array, filename: string): string | undefined {
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls'
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'pdf'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) || startsWith(bytes, [0xff, 0xd8, 0xff]) || startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image'
  const extension = /\.([a-z\d]{2,8})$/i.exec(filename)?.[1]?.toLowerCase()
  return extension && ['xls', 'xlsb', 'ods', 'numbers', 'pdf'].includes(extension) ? extension : undefined
}

/** UTF-16 (Excel's "Unicode text"): its BOM, or a zero byte beside nearly every ASCII character. */
function looksUtf16(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true
  const sample = bytes.subarray(0, 512)
  const zeros = [0, 0]
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) zeros[i % 2]!++
  const half = sample.length / 2
  return half >= 8 && Math.max(zeros[0]!, zeros[1]!) > 0.9 * half && Math.min(zeros[0]!, zeros[1]!) < 0.1 * half
}

function readCsv(bytes: Uint8Array, filename: string): Table | ListFileRefusal {
  if (looksUtf16(bytes)) return refuse('unsupported_encoding', { encoding: 'utf-16' })
  const utf8 = isUtf8(bytes)
  // A UTF-8 BOM before bytes that are not UTF-8: pieces of two files, or a bad conversion. Read as Windows-1252, its
  // accents would be wrong without a sign of it.
  if (!utf8 && startsWith(bytes, [0xef, 0xbb, 0xbf])) return refuse('unsupported_encoding', { encoding: 'invalid-utf-8' })
  const text = decodeCsvBytes(bytes)
  if (text === null) {
    const format = binaryFormat(bytes, filename)
    return refuse('binary', format ? { format } : undefined)
  }
  const delimiter = detectDelimiter(text)
  return { records: parseCsvRecords(text, delimiter), format: 'csv', delimiter, encoding: utf8 ? 'utf-8' : 'windows-1252' }
}

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i

/** A cell no header holds: an address, a site, a number of 5 digits or more (a SIRET, a postal code, a phone). */
function looksLikeValue(cell: string): boolean {
  if (EMAIL_LIKE.test(cell) || /^(?:https?:\/\/|www\.)\S+$/i.test(cell)) return true
  return /^[\d\s.+()-]+$/.test(cell) && cell.replace(/\D/g, '').length >= 5
}

/** The rows fitted to the header's width, blank ones left out. */
function fitRows(records: readonly CsvRecord[], width: number): CsvRecord[] {
  const fitted: CsvRecord[] = []
  for (const { line, cells } of records) {
    const row = cells.slice(0, width)
    if (!row.some(Boolean)) continue
    while (row.length < width) row.push('')
    fitted.push({ line, cells: row })
  }
  return fitted
}

function withoutRepeats(records: readonly CsvRecord[]): { rows: string[][]; lines: number[]; duplicates: number } {
  const seen = new Set<string>()
  const rows: string[][] = []
  const lines: number[] = []
  for (const { line, cells } of records) {
    const key = JSON.stringify(cells)
    if (seen.has(key)) continue
    seen.add(key)
    rows.push(cells)
    lines.push(line)
  }
  return { rows, lines, duplicates: records.length - rows.length }
}

const emptyColumnsOf = (rows: readonly string[][], width: number) =>
  Array.from({ length: width }, (_, column) => column).filter((column) => rows.every((row) => !row[column]))

function tableToList(table: Table, maxRows: number): ParsedList | ListFileRefusal {
  const [header, ...data] = table.records
  const width = header ? header.cells.findLastIndex(Boolean) + 1 : 0
  if (!header || !width) return refuse('empty')
  const headers = header.cells.slice(0, width)
  if (headers.some(looksLikeValue)) return refuse('no_header', { firstRow: headers })
  const fitted = fitRows(data, width)
  if (fitted.length > maxRows) return refuse('too_many_rows', { rows: fitted.length, maxRows })
  if (!fitted.length) return refuse('empty')
  const { rows, lines, duplicates } = withoutRepeats(fitted)
  const list: ParsedList = { headers, rows, lines, format: table.format, duplicates, emptyColumns: emptyColumnsOf(rows, width) }
  if (table.delimiter) list.delimiter = table.delimiter
  if (table.encoding) list.encoding = table.encoding
  return list
}

/**
 * The file's table, or why it is refused: 'empty' (no data row), 'too_large' (more than `maxBytes`, or an XLSX whose
 * content inflates past zip-guard.ts's limit), 'too_many_rows' (more than `maxRows` data rows, blank ones aside and
 * repeats counted: the count the user sees), 'binary' (neither text nor a zip), 'unsupported_encoding',
 * 'unreadable_xlsx', 'zip_bomb' (an XLSX that would inflate past the limits), 'no_header' (the first row holds values).
 */
export async function parseListFile(bytes: Uint8Array, filename: string, options: ParseListOptions = {}): Promise<ParsedList | ListFileRefusal> {
  const maxRows = options.maxRows ?? LIST_MAX_ROWS
  const maxBytes = options.maxBytes ?? LIST_MAX_FILE_BYTES
  if (!bytes.length) return refuse('empty')
  if (bytes.length > maxBytes) return refuse('too_large', { bytes: bytes.length, maxBytes })
  if (ZIP_SIGNATURES.some((signature) => startsWith(bytes, signature))) {
    const records = await readXlsxRecords(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    return 'refused' in records ? records : tableToList({ records, format: 'xlsx' }, maxRows)
  }
  const table = readCsv(bytes, filename)
  return 'refused' in table ? table : tableToList(table, maxRows)
}
