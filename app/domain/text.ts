/**
 * Text normalisation shared by the browser and the server, so a category or a place typed as
 * "Boulangérie", "BOULANGERIE" or "boulangerie" matches the same way on both sides (SPEC §5:
 * category matching ignores case and accents).
 */

// Letters that NFD does not turn into ASCII base letters (ligatures and the like), yet French users type "oeuvre"
// for "œuvre".
const FOLD: Record<string, string> = { æ: 'ae', œ: 'oe', ß: 'ss', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ŀ: 'l', ĸ: 'k', ŉ: 'n', ſ: 's' }
const FOLD_RE = /[æœßøđðłþıŀĸŉſ]/g
const COMBINING_MARKS_RE = /\p{M}+/gu
// Spaces, hyphens and apostrophes (ASCII and typographic) are typed interchangeably in names: "Île-de-France",
// "ile de france", "L’Haÿ-les-Roses", "l hay les roses". They all fold to one space.
const SEPARATORS_RE = /[\s'’‘ʼ`´\-‐‑‒–—]+/g
// "St"/"Ste" (with or without a dot) before another word are "Saint"/"Sainte": "St-Étienne", "st etienne". Not a lone
// trailing "st", which is someone still typing "Strasbourg".
const SAINT_RE = /(^| )(st|ste)\.?(?= )/g
const SAINT_WORDS: Record<string, string> = { st: 'saint', ste: 'sainte' }

// Plain ASCII words separated by single spaces, without hyphens or apostrophes (most place names): nothing to fold.
const PLAIN_ASCII_RE = /^[\x21-\x26\x28-\x2c\x2e-\x5f\x61-\x7e]+(?: [\x21-\x26\x28-\x2c\x2e-\x5f\x61-\x7e]+)*$/

/**
 * Lowercases and folds accented Latin letters to ASCII ("Œuvre" → "oeuvre", "Straße" → "strasse"); other characters
 * are left as they are. The one accent-stripper: search, file names, registry and place-name matching build on it.
 */
export function foldToAscii(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(COMBINING_MARKS_RE, '')
    .replace(FOLD_RE, (char) => FOLD[char] ?? char)
}

/**
 * The one folding of names and queries, in the browser (pickers) and on the server (location and category lookups):
 * case and accents ignored (foldToAscii), spaces, hyphens and apostrophes one space, "St"/"Ste" spelled out.
 */
export function normalizeForSearch(text: string): string {
  const lower = text.toLowerCase()
  // Fast path: indexing ~170 000 city names at first load otherwise costs 0.4 s.
  const folded = PLAIN_ASCII_RE.test(lower) ? lower : foldToAscii(lower).replace(SEPARATORS_RE, ' ').trim()
  return folded.includes('st') ? folded.replace(SAINT_RE, (_, before: string, word: string) => `${before}${SAINT_WORDS[word]}`) : folded
}

/** Match quality of a normalized query against a normalized text: lower is better, null = no match. */
export type MatchRank = 0 | 1 | 2 | 3 | 4

const WORD_SEPARATOR_RE = /[\s'\-/(),.&]/

/**
 * Ranks how `query` matches `text` (both already normalized):
 * 0 exact, 1 prefix of the whole text, 2 prefix of a word inside it, 3 substring (separators ignored),
 * 4 every query word found somewhere (e.g. "salon coiffure" → "salon de coiffure").
 */
export function rankMatch(text: string, query: string): MatchRank | null {
  if (query === '') return 0
  if (text === query) return 0
  if (text.startsWith(query)) return 1
  let index = text.indexOf(query)
  if (index > 0) {
    // Look for an occurrence that starts a word before settling for a plain substring.
    while (index > 0) {
      if (WORD_SEPARATOR_RE.test(text.charAt(index - 1))) return 2
      index = text.indexOf(query, index + 1)
    }
    return 3
  }
  const words = query.split(' ')
  if (words.length > 1 && words.every((word) => text.includes(word))) return 4
  // Separators left out altogether ("iledefrance", "saintetienne"): a substring once removed.
  if (text.includes(' ') && text.replaceAll(' ', '').includes(query.replaceAll(' ', ''))) return 3
  return null
}

/**
 * The items whose folded name matches `query` (normalizeForSearch), best matches first (rankMatch), the input order
 * breaking ties; at most `limit`. The location pickers filter with it in the browser and on the server.
 */
export function filterByMatch<T>(items: readonly T[], keyOf: (item: T) => string, query: string | undefined, limit = Infinity): T[] {
  const normalized = normalizeForSearch(query ?? '')
  if (normalized === '') return items.slice(0, limit)
  // Bucket by rank instead of sorting: input order is already the wanted tie-break order.
  const buckets: T[][] = [[], [], [], [], []]
  for (const item of items) {
    const rank = rankMatch(keyOf(item), normalized)
    if (rank !== null) buckets[rank]!.push(item)
  }
  return buckets.flat().slice(0, limit)
}
