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
