// Numbers as people type them (issue "Polish round 3", item 1): French users write "4,2", English users "4.2", and
// both mean the same in either interface language. One parser for every decimal field, client and server. Pure.

/** Digits with at most one decimal separator (comma or point), optional sign; thousands separators are not numbers here. */
const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/

/** The number typed: null when the field is empty, NaN when it is not a number ("4,2,1", "abc", "1e3"). */
export function parseDecimal(text: string | number | null | undefined): number | null {
  if (typeof text === 'number') return Number.isFinite(text) ? text : Number.NaN
  const trimmed = (text ?? '').trim()
  if (trimmed === '') return null
  return DECIMAL.test(trimmed) ? Number(trimmed.replace(',', '.')) : Number.NaN
}

/**
 * A minimum typed into a filter ("4,2" stars, "10" reviews): null when empty, the number when it is one within
 * 0..max (whole when `integer`), else 'invalid'. The filters' schema and the form's own message read it alike.
 */
export function readMinimum(value: string | number | null | undefined, max: number, integer: boolean): number | null | 'invalid' {
  const number = parseDecimal(value)
  if (number === null) return null
  return Number.isFinite(number) && number >= 0 && number <= max && (!integer || Number.isInteger(number)) ? number : 'invalid'
}
