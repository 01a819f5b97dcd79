// Spreadsheet formula injection (OWASP "CSV injection"), one rule for CSV and XLSX.
//
// A spreadsheet runs a cell as a formula when its text starts with = + - @ (or their full-width
// forms, which Apple Numbers normalises), and some importers also after leading tabs, line breaks
// or spaces. Such text gets a leading single quote, so it shows as text and stays text when
// edited (F2, Enter). Values that are plainly data keep their exact form: a phone number ("+33 1
// 23 45 67 89", "+1 (555) 123-4567") or a signed number ("-12.5") holds no function name, cell
// reference, DDE pipe or second operator, so it cannot carry a payload, while a quote in front of
// it would break click-to-call, CRM imports and deduplication.

/** The first characters that make a cell a formula. */
const FORMULA_TRIGGERS: ReadonlySet<string> = new Set(['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'])

/** "+" then only digits, spaces, dots, hyphens and parentheses: a phone number in any common layout. */
const PHONE = /^\+[\d ().-]*\d[\d ().-]*$/
/** An optionally signed decimal number. */
const SIGNED_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/

function isPlainData(text: string): boolean {
  return PHONE.test(text) || SIGNED_NUMBER.test(text)
}

/** `'=1+1` for `=1+1` (and for ` \n=1+1`); phone numbers, numbers and other text unchanged. */
export function neutralizeFormula(text: string): string {
  const first = text.trimStart()[0]
  if (first === undefined || !FORMULA_TRIGGERS.has(first)) {
    // Whitespace before a trigger is skipped by some importers; a leading tab or CR alone is harmless text.
    return text
  }
  return isPlainData(text) ? text : `'${text}`
}

/**
 * Text that reads back as `'` + a quoted value: one or more quotes, then text that needs one. Files we read back
 * (the do-not-contact list) must tell our quote from a value's own, so such text gets one more quote on the way out.
 */
function looksQuoted(text: string): boolean {
  const unquoted = text.replace(/^'+/, '')
  return unquoted !== text && neutralizeFormula(unquoted) !== unquoted
}

/** neutralizeFormula, undone exactly by `restoreFormula` (a value of its own starting with `'` keeps it). */
export function neutralizeFormulaReversibly(text: string): string {
  return neutralizeFormula(text) !== text || looksQuoted(text) ? `'${text}` : text
}

/** The value a neutralised cell stood for: `=1+1` for `'=1+1`; any other text unchanged. */
export function restoreFormula(text: string): string {
  return looksQuoted(text) ? text.slice(1) : text
}
