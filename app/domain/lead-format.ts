/**
 * How a lead's contact details read in the interface: one phone format everywhere (international, as stored by the
 * enrichment), and a website shown by its host while the link keeps the full address. Pure: no I/O.
 *
 * The loaders call it, so libphonenumber's metadata stays on the server and costs the browser nothing.
 */
import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max'

const COUNTRIES = new Set<string>(getCountries())

export interface PhoneDisplay {
  /** "+33 2 98 04 12 34" */
  text: string
  /** "tel:+33298041234" */
  href: string
}

function countryOf(code: string | null | undefined): CountryCode | undefined {
  const upper = (code ?? '').trim().toUpperCase()
  const normalised = upper === 'UK' ? 'GB' : upper
  return COUNTRIES.has(normalised) ? (normalised as CountryCode) : undefined
}

function parsePhone(raw: string | null | undefined, countryCode?: string | null) {
  const input = (raw ?? '').replace(/\s+/g, ' ').trim()
  if (!input) return undefined
  try {
    return parsePhoneNumberFromString(input.replace(/^00(?=[1-9])/, '+'), { defaultCountry: countryOf(countryCode) })
  } catch {
    return undefined
  }
}

/**
 * International format for any number libphonenumber can read (national numbers need the lead's country); a number
 * it cannot read is shown as written, spaces collapsed, so nothing the source gave is hidden.
 */
export function formatPhone(raw: string | null | undefined, countryCode?: string | null): PhoneDisplay | null {
  const input = (raw ?? '').replace(/\s+/g, ' ').trim()
  if (!input) return null
  const parsed = parsePhone(input, countryCode)
  if (parsed?.isPossible()) return { text: parsed.formatInternational(), href: parsed.getURI() }
  const dialable = input.replace(/[^\d+]/g, '')
  return { text: input, href: `tel:${dialable}` }
}

/**
 * The number in E.164 ("+33298041234"), for machines (the API gives it beside the display value); null when
 * libphonenumber cannot read it as a possible number.
 */
export function phoneE164(raw: string | null | undefined, countryCode?: string | null): string | null {
  const parsed = parsePhone(raw, countryCode)
  return parsed?.isPossible() ? parsed.number : null
}

export interface WebsiteDisplay {
  /** "boulangerie-x.fr" */
  host: string
  /** The full address, for the link; only http(s), so a stored "javascript:" value never becomes a link. */
  href: string | null
}

/** The host a person recognises ("www." dropped); the link still goes to the full URL. */
export function formatWebsite(raw: string | null | undefined): WebsiteDisplay | null {
  const input = (raw ?? '').trim()
  if (!input) return null
  const withScheme = /^[a-z][a-z\d+.-]*:/i.test(input) ? input : `https://${input}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return { host: input, href: null }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { host: input, href: null }
  return { host: url.hostname.replace(/^www\./i, '') || input, href: url.href }
}
