/** Formats a stored timestamp for display; missing → "Unknown date", unparsable → "Invalid date" (SPEC §8). */
export function formatDate(value: string | null | undefined, language: string, t: (key: string) => string, style: 'date' | 'dateTime' = 'date') {
  if (!value) return t('exports.unknownDate')
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return t('exports.invalidDate')
  return dateFormat(language, style).format(date)
}

// Building an Intl.DateTimeFormat costs far more than using one, and the exports list formats a date per row.
const formats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(language: string, style: 'date' | 'dateTime') {
  const key = `${language}|${style}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(language, style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' })
    if (formats.size < 50) formats.set(key, format) // languages come from a short list; the cap guards the rest
  }
  return format
}
