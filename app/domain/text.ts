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
// Typographic apostrophes and dashes come from copy-paste; fold them to their ASCII form.
const APOSTROPHES_RE = /[’‘ʼ`´]/g
const DASHES_RE = /[‐‑‒–—]/g
const SPACES_RE = /\s+/g

// Plain ASCII words separated by single spaces (most place names): nothing to strip or fold.
const PLAIN_ASCII_RE = /^[\x21-\x5f\x61-\x7e]+(?: [\x21-\x5f\x61-\x7e]+)*$/

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

/** Lowercases, strips accents (foldToAscii), folds typographic punctuation and collapses whitespace. */
export function normalizeForSearch(text: string): string {
  const lower = text.toLowerCase()
  // Fast path: indexing ~170 000 city names at first load otherwise costs 0.4 s.
  if (PLAIN_ASCII_RE.test(lower)) return lower
  return foldToAscii(lower)
    .replace(APOSTROPHES_RE, "'")
    .replace(DASHES_RE, '-')
    .replace(SPACES_RE, ' ')
    .trim()
}

/** Match quality of a normalized query against a normalized text: lower is better, null = no match. */
export type MatchRank = 0 | 1 | 2 | 3 | 4

const WORD_SEPARATOR_RE = /[\s'\-/(),.&]/

/**
 * Ranks how `query` matches `text` (both already normalized):
 * 0 exact, 1 prefix of the whole text, 2 prefix of a word inside it, 3 substring,
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
  return null
}
