/**
 * The first sheet of an uploaded XLSX as rows of text, each cell as Excel shows it: numbers as written (with the
 * zeros of a "00000" format, which is how spreadsheets keep postal codes), dates in ISO, a formula as the result
 * Excel saved with it — never evaluated. The zip passes zip-guard.ts before exceljs inflates any of it.
 */
import ExcelJS from 'exceljs'
import type { CsvRecord } from '#app/domain/csv-text.ts'
import { checkZip, XLSX_LIMITS, type ZipCheck, type ZipEntry } from './zip-guard.ts'

export interface SheetRefusal {
  refused: 'unreadable_xlsx' | 'zip_bomb' | 'too_large' | 'empty'
  detail?: { format?: string; uncompressedBytes?: number; maxUncompressedBytes?: number }
}

/** What a zip that is no XLSX is instead: the refusal can tell the user what to save it as. */
function otherFormat(entries: readonly ZipEntry[]): string | null {
  const names = new Set(entries.map((entry) => entry.name))
  if (names.has('xl/workbook.xml')) return null
  if (names.has('xl/workbook.bin')) return 'xlsb'
  if (names.has('mimetype') && names.has('content.xml')) return 'ods'
  return 'zip'
}

/** Up to 15 significant digits, as Excel shows a number in its General format: 0.1 + 0.2 is "0.3". */
function numberText(value: number, numFmt: string | undefined): string {
  if (numFmt && /^0+$/.test(numFmt) && Number.isInteger(value) && value >= 0) return String(value).padStart(numFmt.length, '0')
  return String(Number(value.toPrecision(15)))
}

/** A date alone as "2024-03-15", with a time as "2024-03-15T08:30:00" (exceljs reads sheet dates as UTC). */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
}

function valueText(value: ExcelJS.CellValue, numFmt: string | undefined): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return numberText(value, numFmt)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (value instanceof Date) return dateText(value)
  if ('richText' in value) return value.richText.map((run) => run.text).join('')
  if ('formula' in value || 'sharedFormula' in value) return valueText(value.result ?? null, numFmt)
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : valueText(value.text as ExcelJS.CellValue, numFmt)
  if ('error' in value) return value.error
  return ''
}

function cellText(cell: ExcelJS.Cell): string {
  // A merged range shows its value once, in its first cell; exceljs hands it to every cell of the range.
  if (cell.isMerged && cell.master.address !== cell.address) return ''
  return valueText(cell.value, cell.numFmt).trim()
}

function sheetRecords(sheet: ExcelJS.Worksheet): CsvRecord[] {
  const records: CsvRecord[] = []
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = []
    for (let column = 1; column <= row.cellCount; column++) cells.push(cellText(row.getCell(column)))
    if (cells.some(Boolean)) records.push({ line: rowNumber, cells })
  })
  return records
}

function checkRefusal(check: Extract<ZipCheck, { ok: false }>): SheetRefusal {
  if (check.reason === 'unreadable') return { refused: 'unreadable_xlsx' }
  const uncompressedBytes = check.uncompressedBytes ?? 0
  if (check.reason === 'bomb') return { refused: 'zip_bomb', detail: { uncompressedBytes } }
  return { refused: 'too_large', detail: { uncompressedBytes, maxUncompressedBytes: XLSX_LIMITS.maxUncompressedBytes } }
}

/** The records of the workbook's first visible sheet, or why the file cannot be read. */
export async function readXlsxRecords(zip: Buffer): Promise<CsvRecord[] | SheetRefusal> {
  const check = await checkZip(zip)
  if (!check.ok) return checkRefusal(check)
  const format = otherFormat(check.entries)
  if (format) return { refused: 'unreadable_xlsx', detail: { format } }
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(zip as unknown as Parameters<typeof workbook.xlsx.load>[0])
  } catch {
    return { refused: 'unreadable_xlsx' }
  }
  const sheet = workbook.worksheets.find((candidate) => candidate.state === 'visible') ?? workbook.worksheets[0]
  return sheet ? sheetRecords(sheet) : { refused: 'empty' }
}
