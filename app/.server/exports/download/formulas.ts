// Spreadsheet formula injection (OWASP "CSV injection"; ARCHITECTURE §5 item 5).
//
// CSV goes through csv-stringify's `escape_formulas`, which prefixes a single quote to any text
// starting with = + - @ tab or CR (and their full-width forms = + - @, which Apple Numbers
// normalises), and leaves numbers alone. XLSX cells are written as text (never formula cells),
// and their text gets the very same prefix, so both files read the same and a cell edited in Excel
// (F2, Enter) cannot turn into a live formula.

/** The first characters csv-stringify 6.9 `escape_formulas` neutralises. */
export const FORMULA_TRIGGERS: ReadonlySet<string> = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'])

/** `'=1+1` for `=1+1`; other text unchanged. Numbers are never passed here. */
export function neutralizeFormula(text: string): string {
  return text.length > 0 && FORMULA_TRIGGERS.has(text[0]!) ? `'${text}` : text
}
