/**
 * Reading a CSV file someone else wrote (the do-not-contact import): its bytes to text, its delimiter, its records.
 * Files come from Excel (Windows-1252 when saved as "CSV (separator: semicolon)" by a French Excel, UTF-8 with a BOM
 * as "CSV UTF-8"), Google Sheets, CRMs and mailing tools (lemlist, HubSpot): "," or ";", sometimes tab or "|",
 * CRLF or LF, RFC 4180 quotes. Pure: no I/O.
 */

const CSV_DELIMITERS = [';', ',', '\t', '|'] as const
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number]

/** A control character no text file holds (tab, LF and CR aside), C1 controls included: the file is binary. */
function holdsControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

/**
 * The file's text: UTF-8 (its BOM dropped) when the bytes are valid UTF-8, else Windows-1252 (a byte sequence
 * invalid in UTF-8 is almost never a UTF-8 file; every byte means something in Windows-1252). Null for a binary
 * file (a spreadsheet, an image): it holds control characters.
 */
export function decodeCsvBytes(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes)
  }
  return holdsControl(text) ? null : text
}

/** How many times `delimiter` occurs outside quotes on each of the first lines. */
function countsPerLine(lines: readonly string[], delimiter: CsvDelimiter): number[] {
  return lines.map((line) => {
    let count = 0
    let quoted = false
    for (const char of line) {
      if (char === '"') quoted = !quoted
      else if (char === delimiter && !quoted) count++
    }
    return count
  })
}

/**
 * The delimiter of the file: the one found the same number of times (at least once) on the most of its first 20
 * lines. A company name may hold a comma ("Martin, Fils & Cie") and not a semicolon, so a count that changes from
 * line to line loses to a steady one. A file of one value per line has none: "," (nothing to split).
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim())
    .slice(0, 20)
  let best: { delimiter: CsvDelimiter; steady: number; width: number } = { delimiter: ',', steady: 0, width: 0 }
  for (const delimiter of CSV_DELIMITERS) {
    const counts = countsPerLine(lines, delimiter)
    const tally = new Map<number, number>()
    for (const count of counts) if (count > 0) tally.set(count, (tally.get(count) ?? 0) + 1)
    for (const [width, steady] of tally) {
      if (steady > best.steady || (steady === best.steady && width > best.width)) best = { delimiter, steady, width }
    }
  }
  return best.delimiter
}

/** One record of the file: the line it starts on (1-based, as an editor numbers them) and its cells, trimmed. */
export interface CsvRecord {
  line: number
  cells: string[]
}

/**
 * The file's records, RFC 4180 with the leniency of the tools that write them: a quoted field may hold the
 * delimiter, quotes ("" for one) and line breaks; a quote inside an unquoted field is text; an unclosed quote runs
 * to the end of the file. Lines with no text (empty, or only delimiters) are left out: they carry nothing.
 */
export function parseCsvRecords(text: string, delimiter: CsvDelimiter): CsvRecord[] {
  const records: CsvRecord[] = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let start = 1
  const endRecord = () => {
    cells.push(cell)
    if (cells.some((value) => value.trim())) records.push({ line: start, cells: cells.map((value) => value.trim()) })
    cells = []
    cell = ''
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++
        cell += char
      }
    } else if (char === '"' && !cell.trim()) {
      quoted = true
      cell = ''
    } else if (char === delimiter) {
      cells.push(cell)
      cell = ''
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i++
      endRecord()
      line++
      start = line
    } else cell += char
  }
  if (cell || cells.length) endRecord()
  return records
}
