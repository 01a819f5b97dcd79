/**
 * Countries (i18n-iso-countries): names in fr and en, and resolution of whatever the user picked
 * (a name in either language, an alias such as "USA", or the alpha-2/alpha-3 code) to alpha-2.
 */
import { createRequire } from 'node:module'
import type * as IsoCountries from 'i18n-iso-countries'
import { normalizeForSearch } from '#app/domain/text.ts'
import { sortByName, toPlace, type Place } from './places.ts'

export type Lang = 'fr' | 'en'
const LANGS: readonly Lang[] = ['fr', 'en']

// The package's Node entry registers its ~80 locales; the core plus the two we serve is enough.
const require = createRequire(import.meta.url)
let library: typeof IsoCountries | undefined

function countriesLibrary(): typeof IsoCountries {
  if (!library) {
    library = require('i18n-iso-countries/index.js') as typeof IsoCountries
    for (const lang of LANGS) library.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`))
  }
  return library
}

const countryPlaces = new Map<Lang, readonly Place[]>()

/** Every country in `lang`, sorted by localized name, `code` = ISO alpha-2. */
export function countriesIn(lang: Lang): readonly Place[] {
  let places = countryPlaces.get(lang)
  if (!places) {
    const names = countriesLibrary().getNames(lang, { select: 'official' })
    places = sortByName(
      Object.entries(names).map(([code, name]) => toPlace(name, code)),
      lang,
    )
    countryPlaces.set(lang, places)
  }
  return places
}

let nameIndex: Map<string, string> | undefined

/** Normalized name or alias (fr and en) → alpha-2; official names win over aliases ("Congo"). */
function buildNameIndex(): Map<string, string> {
  const lib = countriesLibrary()
  const index = new Map<string, string>()
  const add = (name: string, code: string) => {
    const key = normalizeForSearch(name)
    if (key && !index.has(key)) index.set(key, code)
  }
  for (const lang of LANGS) {
    for (const [code, name] of Object.entries(lib.getNames(lang, { select: 'official' }))) add(name, code)
  }
  for (const lang of LANGS) {
    for (const [code, names] of Object.entries(lib.getNames(lang, { select: 'all' }))) {
      for (const name of names) add(name, code)
    }
  }
  return index
}

/** Alpha-2 code of a country given by name (fr or en), alias, or alpha-2/alpha-3 code; else null. */
export function countryCodeFromName(countryName: string): string | null {
  const trimmed = countryName.trim()
  if (trimmed === '') return null
  const lib = countriesLibrary()
  const upper = trimmed.toUpperCase()
  if (/^[A-Z]{2}$/.test(upper) && lib.isValid(upper)) return upper
  if (/^[A-Z]{3}$/.test(upper) && lib.isValid(upper)) return lib.alpha3ToAlpha2(upper) ?? null
  nameIndex ??= buildNameIndex()
  return nameIndex.get(normalizeForSearch(trimmed)) ?? null
}

