/**
 * The shape every location level is indexed in, and the query filter shared by all levels:
 * names are normalized once when a dataset is indexed, so a keystroke only compares strings.
 */
import { filterByMatch, normalizeForSearch } from '#app/domain/text.ts'

/** What the locations API answers (SPEC §3: name, and code for countries). */
export interface LocationOption {
  name: string
  /** ISO alpha-2 for countries; INSEE / ISO 3166-2 codes for subdivisions and French communes. */
  code?: string
}

/** An indexed place: the option plus its normalized name. */
export interface Place {
  name: string
  code?: string
  key: string
}

export function toPlace(name: string, code?: string): Place {
  return code === undefined ? { name, key: normalizeForSearch(name) } : { name, code, key: normalizeForSearch(name) }
}

export function toOption(place: Place): LocationOption {
  return place.code === undefined ? { name: place.name } : { name: place.name, code: place.code }
}

/** Keeps the places matching `query` (folded as everywhere: filterByMatch), best matches first; at most `limit`. */
export function filterPlaces(places: readonly Place[], query: string | undefined, limit = Infinity): Place[] {
  return filterByMatch(places, (place) => place.key, query, limit)
}

/** Finds a place by its name (any case/accents) or its code. */
export function findPlace(places: readonly Place[], nameOrCode: string): Place | undefined {
  const trimmed = nameOrCode.trim()
  const key = normalizeForSearch(trimmed)
  return places.find((place) => place.key === key) ?? places.find((place) => place.code !== undefined && place.code.toUpperCase() === trimmed.toUpperCase())
}

export function sortByName<T extends { name: string }>(items: T[], lang: string): T[] {
  const collator = new Intl.Collator(lang, { sensitivity: 'base' })
  return items.sort((a, b) => collator.compare(a.name, b.name))
}
