/**
 * The country whose national format a site's numbers are written in. The crawl is given the lead's (or the export's)
 * country, but a Belgian, Swiss or Québec business is found by French exports too, and its "0475 62 13 09" read as
 * French becomes a valid +33 4 75 62 13 09: the site says where it is, by its ccTLD, the region of its language
 * ("fr-BE"), the country of its postal address (JSON-LD, a "Belgique" line, a Canadian postal code) and the
 * international numbers it writes ("+32 …"). Each is weighed; the lead's country counts too and wins ties.
 */
import { jsonLdStrings, type ParsedPage } from './html.ts'
import { countryFromHostname, countryOfInternational, toCountryCode } from './phones.ts'

interface CountryPage {
  url: string
  parsed: ParsedPage
}

const HINT = 2
const TLD = 3
const LANGUAGE_REGION = 2
const ADDRESS_COUNTRY = 3
const ADDRESS_LINE = 2
const INTERNATIONAL_NUMBER = 1
const MAX_INTERNATIONAL = 2

/** Country names as addresses write them (fr, nl, de, it, en). */
const COUNTRY_NAMES: Record<string, string> = {
  france: 'FR',
  belgique: 'BE',
  belgië: 'BE',
  belgie: 'BE',
  belgium: 'BE',
  belgien: 'BE',
  suisse: 'CH',
  schweiz: 'CH',
  svizzera: 'CH',
  switzerland: 'CH',
  canada: 'CA',
  luxembourg: 'LU',
  monaco: 'MC',
}
/** A country name alone at the end of an address line ("7000 Mons\nBelgique", "1700 Fribourg, Suisse"). */
const ADDRESS_COUNTRY_LINE = new RegExp(`(?:^|\\n|,\\s*)(${Object.keys(COUNTRY_NAMES).join('|')})\\s*\\.?\\s*(?=\\n|$)`, 'giu')
/** A Canadian postal code ("H2J 2L3") after a province ("(Québec)", "QC") or a city: Canada's alone. */
const CANADIAN_POSTCODE = /(?:\(Qu[ée]bec\)|\bQC|\bQu[ée]bec|\bOntario|\bON)\s*,?\s*[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d\b/u
/** Languages whose region is a real statement about the site ("en-US" is a template's default). */
const REGIONAL_LANGUAGES = /^(?:fr|nl|de|it)-([a-z]{2})$/

const INTERNATIONAL_IN_TEXT = /(?<![\w+])(?:\+|00)[1-9][\d \u00a0.\-/()]{6,20}\d/g

function add(scores: Map<string, number>, country: string | null | undefined, weight: number) {
  const code = toCountryCode(country)
  if (code) scores.set(code, (scores.get(code) ?? 0) + weight)
}

function countryOfName(value: string): string | undefined {
  const name = value.trim().toLowerCase()
  return COUNTRY_NAMES[name] ?? (name.length === 2 ? name.toUpperCase() : undefined)
}

/**
 * The country to read the site's national numbers in: `hint` (the lead's country) unless the site's own signs
 * outweigh it. `telNumbers`: the raw tel: links of the site (credit blocks left out).
 */
export function siteCountry(pages: CountryPage[], hint: string | null, telNumbers: string[] = []): string | null {
  const home = pages[0]
  if (!home) return hint
  const scores = new Map<string, number>()
  add(scores, hint, HINT)
  try {
    add(scores, countryFromHostname(new URL(home.url).hostname), TLD)
  } catch {
    // no host, no sign
  }
  const region = REGIONAL_LANGUAGES.exec(home.parsed.lang ?? '')?.[1]
  add(scores, region, LANGUAGE_REGION)
  const addressCountries = new Set(pages.flatMap((page) => jsonLdStrings(page.parsed.jsonLd, 'addressCountry')).map(countryOfName))
  for (const country of addressCountries) add(scores, country, ADDRESS_COUNTRY)
  const texts = pages.map((page) => page.parsed.contactText)
  const lineCountries = new Set(texts.flatMap((text) => [...text.matchAll(ADDRESS_COUNTRY_LINE)].map((m) => countryOfName(m[1] as string))))
  if (texts.some((text) => CANADIAN_POSTCODE.test(text))) lineCountries.add('CA')
  for (const country of lineCountries) add(scores, country, ADDRESS_LINE)
  const international = new Map<string, number>()
  const written = [...telNumbers, ...texts.flatMap((text) => text.match(INTERNATIONAL_IN_TEXT) ?? [])]
  for (const raw of written.slice(0, 50)) {
    const country = countryOfInternational(raw)
    if (country) international.set(country, Math.min(MAX_INTERNATIONAL, (international.get(country) ?? 0) + INTERNATIONAL_NUMBER))
  }
  for (const [country, weight] of international) add(scores, country, weight)
  const hintCode = toCountryCode(hint) ?? null
  let best: string | null = hintCode
  let bestScore = hintCode ? (scores.get(hintCode) ?? 0) : 0
  for (const [country, score] of scores) {
    if (score > bestScore) {
      best = country
      bestScore = score
    }
  }
  return best
}
