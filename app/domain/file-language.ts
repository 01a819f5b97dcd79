// The values a downloaded file writes in its language (issue "Polish round 3", item 8): phone line types, email
// checks, business status and opening hours read as words of the file's language, never as stored codes
// ("landline", "OPERATIONAL", "Tu-Sa 07:00-19:30"). File contents, not UI strings: both languages live beside the
// values, like the column headers (phone types in phone-sources.ts, email checks in email-quality.ts). Pure.
export type FileLang = 'fr' | 'en'
/** Header texts are file contents, not UI strings: both languages live beside the column. */
export type FileLabel = Readonly<Record<FileLang, string>>

/** Google Places `businessStatus` (and the demo source's, which mirrors it). */
const BUSINESS_STATUS_LABELS: Record<string, FileLabel> = {
  OPERATIONAL: { en: 'Open', fr: 'En activité' },
  CLOSED_TEMPORARILY: { en: 'Temporarily closed', fr: 'Fermé temporairement' },
  CLOSED_PERMANENTLY: { en: 'Permanently closed', fr: 'Fermé définitivement' },
}

export function businessStatusLabel(value: unknown, lang: FileLang): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null
  return BUSINESS_STATUS_LABELS[value.trim().toUpperCase()]?.[lang] ?? value
}

// OpenStreetMap's opening_hours syntax (https://wiki.openstreetmap.org/wiki/Key:opening_hours): the common subset
// businesses use — weekdays, holidays, times, ranges, off/closed, 24/7 — written out in the file's language.
const OSM_WORDS: Record<string, FileLabel> = {
  Mo: { en: 'Mon', fr: 'lun.' },
  Tu: { en: 'Tue', fr: 'mar.' },
  We: { en: 'Wed', fr: 'mer.' },
  Th: { en: 'Thu', fr: 'jeu.' },
  Fr: { en: 'Fri', fr: 'ven.' },
  Sa: { en: 'Sat', fr: 'sam.' },
  Su: { en: 'Sun', fr: 'dim.' },
  PH: { en: 'public holidays', fr: 'jours fériés' },
  SH: { en: 'school holidays', fr: 'vacances scolaires' },
  off: { en: 'closed', fr: 'fermé' },
  closed: { en: 'closed', fr: 'fermé' },
  '24/7': { en: 'open 24/7', fr: 'ouvert 24 h/24, 7 j/7' },
}

const OSM_TOKEN = /\b(?:Mo|Tu|We|Th|Fr|Sa|Su|PH|SH|off|closed)\b|24\/7/g
/** Only these characters and words: anything else (free text, Google's sentences) is written as given. */
const OSM_SHAPE = /^(?:\s|[\d:,;\-+]|\b(?:Mo|Tu|We|Th|Fr|Sa|Su|PH|SH|off|closed)\b|24\/7)+$/

/** "Tu-Sa 07:00-19:30; Su 07:00-13:00" → "mar.–sam. 07:00–19:30 ; dim. 07:00–13:00" (fr); other text as given. */
export function formatOsmOpeningHours(value: string, lang: FileLang): string {
  if (!OSM_SHAPE.test(value) || !/\d/.test(value)) return value
  return value
    .replace(OSM_TOKEN, (token) => OSM_WORDS[token]?.[lang] ?? token)
    .replace(/\s*-\s*/g, '–')
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s*;\s*/g, lang === 'fr' ? ' ; ' : '; ')
    .trim()
}
