/**
 * How alike two administrative names are, across the languages ISO 3166-2 and GeoNames mix
 * ("Thüringen" / "Thuringia", "Amurskaya oblast'" / "Amur"): what links a subdivision to its
 * GeoNames unit when codes do not.
 */
import { normalizeForSearch } from '#app/domain/text.ts'

/** The score from which two names are taken for the same place. */
export const SIMILAR = 0.7

// Words that say what kind of unit a name is, in the languages GeoNames and ISO mix.
const GENERIC_WORDS = new Set([
  'province', 'provincia', 'provincie', 'provinz', 'provinsi', 'region', 'regione', 'regiao', 'state', 'estado',
  'county', 'comte', 'oblast', 'oblast\'', 'kray', 'krai', 'governorate', 'muhafazat', 'wilayah', 'wilaya',
  'department', 'departement', 'departamento', 'district', 'distrito', 'municipality', 'municipio', 'canton',
  'kanton', 'prefecture', 'autonomous', 'republic', 'city', 'of', 'the', 'de', 'del', 'di', 'du', 'da', 'do',
  'la', 'le', 'les', 'royal', 'borough', 'council', 'capital', 'territory', 'metropolitan', 'island', 'islands',
  'sheng', 'zizhiqu', 'shi', 'sar', 'okrug', 'avtonomnyy', 'respublika', 'voivodeship', 'wojewodztwo', 'gewest',
  'land', 'bundesland', 'prefektura', 'ken', 'regiao', 'autonoma', 'dos', 'das',
])

const nameCache = new Map<string, string[]>()

/** Comparable forms of a name: the whole name and its comma-separated alternatives, stripped. */
function nameForms(name: string): string[] {
  let forms = nameCache.get(name)
  if (!forms) {
    const strip = (text: string) =>
      normalizeForSearch(text)
        .split(/[^a-z0-9']+/)
        .filter((word) => word && !GENERIC_WORDS.has(word))
        .join('')
    // ISO lists bilingual names as "Valle d'Aosta, Vallée d'Aoste".
    forms = [...new Set([name, ...name.split(/,\s*/)].map(strip).filter((form) => form.length >= 3))]
    nameCache.set(name, forms)
  }
  return forms
}

/** 1 for the same name once generic words and accents are gone, else a bigram Dice score. */
export function nameSimilarity(a: string, b: string): number {
  let best = 0
  for (const x of nameForms(a)) {
    for (const y of nameForms(b)) {
      if (x === y) return 1
      // Adjectival forms: "Amurskaya" (ISO) for "Amur" (GeoNames); a longer tail is another
      // name ("Sakhalinskaya" is not "Sakha").
      const [short, long] = x.length <= y.length ? [x, y] : [y, x]
      if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 5) best = Math.max(best, 0.8)
      best = Math.max(best, dice(x, y))
    }
  }
  return best
}

function dice(a: string, b: string): number {
  const bigrams = (text: string) => {
    const counts = new Map<string, number>()
    for (let i = 0; i < text.length - 1; i++) {
      const bigram = text.slice(i, i + 2)
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1)
    }
    return counts
  }
  const left = bigrams(a)
  const right = bigrams(b)
  let shared = 0
  for (const [bigram, count] of left) shared += Math.min(count, right.get(bigram) ?? 0)
  return (2 * shared) / (a.length - 1 + b.length - 1)
}
