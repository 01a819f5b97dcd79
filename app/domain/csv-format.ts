// CSV dialect of a download (SPEC §7 download; ARCHITECTURE §5 item 5). Pure: shared by client and server.
//
// Excel opens a double-clicked .csv with the *list separator of the machine's regional settings*:
// "," in English-speaking locales, ";" in French ones, where "," is the decimal mark. A comma file
// opened by a French Excel lands every row in column A, and "4.5" becomes a date or text. So, like
// the French prospecting tools, the user chooses between:
// - 'comma':     ","  between fields, "." in numbers (4.5): English Excel, Google Sheets, CRMs, code;
// - 'semicolon': ";"  between fields, "," in numbers (4,5): Excel with French regional settings.
// The default follows the interface language (fr -> semicolon, anything else -> comma).
//
// Both dialects keep RFC 4180's rules (CRLF records, fields holding the delimiter, a quote or a line
// break are quoted, quotes doubled); only the delimiter character differs, as RFC 4180 §2 notes
// implementations do. A decimal comma never collides with the ";" delimiter, and a "." never with ",".
// No "sep=;" first line: Excel then ignores the UTF-8 BOM and garbles every accent.

export const CSV_SEPARATORS = ['semicolon', 'comma'] as const
export type CsvSeparator = (typeof CSV_SEPARATORS)[number]

export interface CsvDialect {
  separator: CsvSeparator
  /** Between two fields. */
  delimiter: ';' | ','
  /** Between the integer and fraction digits of a number. */
  decimalMark: ',' | '.'
}

const DIALECTS: Record<CsvSeparator, CsvDialect> = {
  semicolon: { separator: 'semicolon', delimiter: ';', decimalMark: ',' },
  comma: { separator: 'comma', delimiter: ',', decimalMark: '.' },
}

/** The separator a spreadsheet in this interface language expects: fr -> semicolon, else comma. */
export function defaultCsvSeparator(locale: string | null | undefined): CsvSeparator {
  return (locale ?? '').toLowerCase().split(/[-_]/)[0] === 'fr' ? 'semicolon' : 'comma'
}

/**
 * The dialect for a requested separator (the `separator` query parameter) or, when none is given,
 * for the interface language. Null for a value that names no separator (the route answers 400).
 */
export function csvDialect(requested: string | null | undefined, locale: string | null | undefined): CsvDialect | null {
  if (requested === null || requested === undefined || requested === '') return DIALECTS[defaultCsvSeparator(locale)]
  return (CSV_SEPARATORS as readonly string[]).includes(requested) ? DIALECTS[requested as CsvSeparator] : null
}

/**
 * A number as a spreadsheet in that dialect reads it: plain digits, the dialect's decimal mark, no
 * thousands separator (Excel would read "1 234,5" as text) and never an exponent ("1e-7" is text
 * to a French Excel), so 0.0000001 is "0,0000001" and -1.5536 is "-1,5536".
 */
export function formatCsvNumber(value: number, dialect: Pick<CsvDialect, 'decimalMark'>): string {
  if (!Number.isFinite(value)) return ''
  let text = String(value)
  if (/e/i.test(text)) {
    // Enough fraction digits for the exact shortest value, then the trailing zeros trimmed.
    text = value.toFixed(20).replace(/\.?0+$/, '')
    if (Math.abs(value) >= 1e21) text = BigInt(Math.round(value)).toString()
  }
  return dialect.decimalMark === '.' ? text : text.replace('.', dialect.decimalMark)
}
