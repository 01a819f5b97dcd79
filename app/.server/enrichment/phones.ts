/**
 * Phone numbers: normalisation with libphonenumber (full metadata, so validity is checked against real number
 * ranges) and extraction from tel: links and page text.
 */
import { type CountryCode, getCountries, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max'
import type { PhoneType } from '#app/domain/phone-sources.ts'

const KNOWN_COUNTRIES = new Set<string>(getCountries())

/**
 * Regions sharing a numbering plan with a country's national format, tried when the number is not valid for the
 * country itself: French overseas departments dial 0262…, 0590… in France's national format.
 */
const RELATED_REGIONS: Record<string, CountryCode[]> = {
  FR: ['RE', 'YT', 'GP', 'MQ', 'GF', 'PM', 'BL', 'MF'],
  GB: ['GG', 'JE', 'IM'],
  US: ['CA', 'PR'],
  CA: ['US'],
  IT: ['VA', 'SM'],
}

export function toCountryCode(value: string | null | undefined): CountryCode | undefined {
  const code = (value ?? '').trim().toUpperCase()
  if (code === 'UK') return 'GB'
  return KNOWN_COUNTRIES.has(code) ? (code as CountryCode) : undefined
}

function parseValid(raw: string, countryCode?: string | null): PhoneNumber | null {
  const input = raw.trim()
  if (!input || input.length > 40) return null
  const digits = input.replace(/\D/g, '')
  if (digits.length < 6 || digits.length > 17) return null
  const country = toCountryCode(countryCode)
  const attempt = (region: CountryCode | undefined) => {
    try {
      const parsed = parsePhoneNumberFromString(input, region ? { defaultCountry: region } : undefined)
      return parsed && parsed.isValid() && !isDummy(parsed) ? parsed : null
    } catch {
      return null
    }
  }
  const direct = attempt(country)
  if (direct || !country) return direct
  for (const region of RELATED_REGIONS[country] ?? []) {
    const related = attempt(region)
    if (related) return related
  }
  return null
}

/**
 * Sample numbers of forms and templates ("06 00 00 00 00", "01 23 45 67 89"): valid ranges, never a business's. After
 * the leading digit the rest is one digit repeated, or the whole number counts 1 2 3 … 9.
 */
function isDummy(number: PhoneNumber): boolean {
  const national = number.nationalNumber
  return /^(\d)\1+$/.test(national.slice(1)) || national === '123456789'.slice(0, national.length)
}

const TYPES: Partial<Record<NonNullable<ReturnType<PhoneNumber['getType']>>, PhoneType>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  TOLL_FREE: 'toll_free',
  VOIP: 'voip',
}

/**
 * The line type of a number in international format. Numbers whose range is both fixed and mobile (the United
 * States, Canada), shared-cost, premium, personal and the rest are "other".
 */
export function phoneTypeOf(international: string): PhoneType {
  try {
    const type = parsePhoneNumberFromString(international)?.getType()
    return (type && TYPES[type]) ?? 'other'
  } catch {
    return 'other'
  }
}

/**
 * A valid number in international format ("+33 1 23 45 67 89"); null when invalid. National formats need
 * `countryCode` (ISO 3166-1 alpha-2, e.g. "FR"); numbers written with +, 00 or a country prefix parse without it.
 */
export function normalizePhone(raw: string, countryCode?: string | null): string | null {
  let input = raw.trim().replace(/^tel:/i, '')
  try {
    if (input.includes('%')) input = decodeURIComponent(input)
  } catch {
    // keep
  }
  // "+33 (0)1 23 45 67 89": the (0) trunk prefix must go once a country code is written.
  input = input.replace(/^(\+\d{1,3})\s*\(0\)\s*/, '$1 ').replace(/^00(?=[1-9])/, '+')
  const parsed = parseValid(input, countryCode)
  return parsed ? parsed.formatInternational() : null
}

/**
 * Candidates in text: "+33 1 23 45 67 89", "0033 1…", "01 23 45 67 89", "01.23.45.67.89", "(555) 123-4567".
 * A number must start with +, 00, a trunk 0 or a bracketed area code: bare digit runs (SIREN, postcodes, prices) are
 * never read as phones.
 */
const PHONE_IN_TEXT = /(?<![\w+/.-])(?:(?:\+|00)[1-9](?:[ .\-/\u00a0\u202f]?\(?\d\)?){6,15}|\(?0\d(?:[ .\-/\u00a0\u202f)]{0,2}\d){6,11}|\(\d{3}\)[ .-]?\d{3}[ .-]\d{4})(?![\w/.-]?\d)/g

/**
 * Labels of identifiers written like phone numbers (VAT / P.IVA, prefecture approval, RCS, IBAN…) and of phones. A
 * number whose nearest label on its line is an identifier's is not a phone.
 */
const ID_LABEL =
  /(?:\b(?:tva|vat|iva|p\.\s?iva|partita|ust|ust-?id(?:nr)?|umsatzsteuer\S*|steuer\S*|btw|kvk|nif|cif|nie|siret|siren|rcs|r\.c\.s|rm|ape|naf|iban|rib|bic|orias|rea|hrb|hra|handelsregister\S*|registre|cpi|adeli|rpps|finess|eori|duns|kbo|ondernemingsnummer|licen[cs]e|c\.f|codice|agr[ée]ment|pr[ée]fectoral[e]?|pr[ée]fecture|immatriculation)\b)/giu
const PHONE_LABEL = /\b(?:t[ée]l[ée]?(?:phone)?|tel|phone|fon|telefon[oe]?|teléfono|telefoon|mobile?|portable|gsm|fax|appel(?:ez)?|whatsapp|handy|cell|móvil|cellulare|call|llam\w*|chiam\w*|bel|contact)\b/iu

/** The number at `index` directly follows an identifier's label ("P.IVA 0123…", "Agrément préfectoral : E 02 059…"). */
function labelledAsIdentifier(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 60), index)
  const line = before.slice(before.lastIndexOf('\n') + 1)
  const labels = [...line.matchAll(ID_LABEL)]
  const last = labels[labels.length - 1]
  if (!last) return false
  const between = line.slice((last.index ?? 0) + last[0].length)
  return between.length <= 30 && !/\d/.test(between) && !PHONE_LABEL.test(between)
}

/**
 * Italian mobiles are written without a trunk 0 ("347 123 4567", "347.123.4567"): read only for Italian sites, grouped
 * 3-3-4 / 3-3-3 / 3-7, or as one run of 9–10 digits right after a phone label ("Cell. 3471234567").
 */
const IT_MOBILE_GROUPED = /(?<![\w+/.,-])3\d{2}(?:([ .\-\u00a0])\d{3}\1\d{3,4}|[ .\-\u00a0]\d{6,7})(?![\w/.,-]?\d)/g
const IT_MOBILE_RUN = /(?<![\w+/.,-])3\d{8,9}(?![\w/.,-]?\d)/g
const PHONE_LABEL_BEFORE = /\b(?:t[ée]l|tel|cell|cellulare|mobile?|telefono|tel\.?\s*\/\s*fax|whatsapp|chiama\w*|phone)\.?\s*[:：]?\s*$/iu

function italianMobiles(text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(IT_MOBILE_GROUPED)) if (!labelledAsIdentifier(text, match.index)) out.push(match[0])
  for (const match of text.matchAll(IT_MOBILE_RUN)) {
    if (PHONE_LABEL_BEFORE.test(text.slice(Math.max(0, match.index - 30), match.index)) && !labelledAsIdentifier(text, match.index)) out.push(match[0])
  }
  return out
}

/**
 * North American numbers without brackets ("514 277-3841", "450.667.2211", "1 888 341-2290", "1-800-555-0199"): read
 * only for Canadian and US sites, grouped 3-3-4 with separators (a bare run of ten digits is an id as often as a phone).
 */
const NANP_GROUPED = /(?<![\w+/.,-])(?:1[ .-])?[2-9]\d{2}([ .-])\d{3}[ .-]\d{4}(?![\w/.,-]?\d)/g
const NANP_COUNTRIES = new Set(['CA', 'US'])

/** Phone candidates in text; `country` (ISO alpha-2) adds the national forms only that country writes (Italy, Canada, US). */
export function phonesFromText(text: string, country?: string | null): string[] {
  const out: string[] = []
  for (const match of text.matchAll(PHONE_IN_TEXT)) if (!labelledAsIdentifier(text, match.index)) out.push(match[0])
  const code = toCountryCode(country)
  if (code === 'IT') out.push(...italianMobiles(text))
  if (code && NANP_COUNTRIES.has(code)) for (const match of text.matchAll(NANP_GROUPED)) if (!labelledAsIdentifier(text, match.index)) out.push(match[0])
  return out
}

/** The country of a number written in international form ("+32 65 31 22 10", "0041 22…", "tel:+1514…"), else undefined. */
export function countryOfInternational(raw: string): CountryCode | undefined {
  const input = raw.trim().replace(/^tel:/i, '').replace(/^00(?=[1-9])/, '+')
  if (!input.startsWith('+')) return undefined
  return parseValid(input.replace(/^(\+\d{1,3})\s*\(0\)\s*/, '$1 '))?.country
}

/** The number of a WhatsApp click-to-chat link (wa.me/33612345678, api.whatsapp.com/send?phone=…): a mobile, "+…". */
export function phoneFromWhatsAppUrl(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '')
  const raw = host === 'wa.me' ? parsed.pathname.slice(1) : /^(?:api|web)\.whatsapp\.com$/.test(host) ? (parsed.searchParams.get('phone') ?? '') : ''
  const digits = raw.replace(/[\s+().-]/g, '')
  if (!/^[1-9]\d{6,14}$/.test(digits)) return null
  const number = parseValid(`+${digits}`)
  const type = number?.getType()
  return number && (type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE') ? number.formatInternational() : null
}

/** Adds valid numbers (international format) with the page each was first found on to `into`, deduplicated by E.164. */
export function addPhones(into: Map<string, { number: string; page: string }>, candidates: Iterable<[raw: string, page: string]>, countryCode?: string | null) {
  // The same number is usually written several times (tel: link, text, JSON-LD, every page): parse each form once.
  const tried = new Set<string>()
  for (const [candidate, page] of candidates) {
    const signature = candidate.replace(/[^\d+]/g, '')
    if (tried.has(signature)) continue
    tried.add(signature)
    const normalised = normalizePhone(candidate, countryCode)
    if (!normalised) continue
    const key = normalised.replace(/[^\d+]/g, '')
    if (!into.has(key)) into.set(key, { number: normalised, page })
  }
}

/** Country of a ccTLD host ("boulangerie.fr" → FR), for reading national numbers when the lead's country is unknown. */
export function countryFromHostname(hostname: string): CountryCode | undefined {
  const tld = hostname.toLowerCase().split('.').pop() ?? ''
  if (tld.length !== 2) return undefined
  if (tld === 'uk') return 'GB'
  if (tld === 'eu' || tld === 'io' || tld === 'co' || tld === 'me' || tld === 'tv' || tld === 'ai' || tld === 'fm') return undefined
  return toCountryCode(tld)
}
