// Building an Intl.NumberFormat costs far more than using one (tens of µs), and lists format a
// number per row: one formatter per language and style, built once.
const formats = new Map<string, Intl.NumberFormat>()

const STYLES = {
  integer: {},
  oneDecimal: { minimumFractionDigits: 1, maximumFractionDigits: 1 },
} satisfies Record<string, Intl.NumberFormatOptions>

export function numberFormat(language: string, style: keyof typeof STYLES = 'integer'): Intl.NumberFormat {
  const key = `${language}|${style}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(language, STYLES[style])
    if (formats.size < 50) formats.set(key, format) // languages come from a short list; the cap guards the rest
  }
  return format
}
