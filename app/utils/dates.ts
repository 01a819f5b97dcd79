/** Formats a stored timestamp for display; missing → "Unknown date", unparsable → "Invalid date" (SPEC §8). */
export function formatDate(value: string | null | undefined, language: string, t: (key: string) => string, style: 'date' | 'dateTime' = 'date') {
  if (!value) return t('exports.unknownDate')
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return t('exports.invalidDate')
  return new Intl.DateTimeFormat(language, style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}
