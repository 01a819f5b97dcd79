/** OSM element tags → Business. Tag conventions: https://wiki.openstreetmap.org/wiki/Key:contact */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import type { Business, ResolvedCategory } from './types.ts'

export interface OverpassElement {
  type: 'node' | 'way' | 'relation'
  id: number
  lat?: number
  lon?: number
  center?: { lat: number; lon: number }
  tags?: Record<string, string>
}

/** OSM multi-values are ";"-separated. */
function values(tags: Record<string, string>, ...keys: string[]): string[] {
  return keys.flatMap((k) => (tags[k] ? tags[k].split(';') : [])).map((v) => v.trim()).filter(Boolean)
}

function first(tags: Record<string, string>, ...keys: string[]): string | null {
  return values(tags, ...keys)[0] ?? null
}

/** National format for a number of the business's own country, international otherwise, as given when unparseable. */
function formatPhone(raw: string, countryCode: string | null): string {
  const parsed = parsePhoneNumberFromString(raw, (countryCode ?? undefined) as CountryCode | undefined)
  if (!parsed?.isValid()) return raw
  return parsed.country === countryCode ? parsed.formatNational() : parsed.formatInternational()
}

function normalizeWebsite(raw: string): string {
  return /^https?:\/\//i.test(raw) ? raw : `https://${raw.replace(/^\/+/, '')}`
}

const SOCIAL_TAGS: Record<string, { keys: string[]; base: string }> = {
  facebook: { keys: ['contact:facebook', 'facebook'], base: 'https://www.facebook.com/' },
  instagram: { keys: ['contact:instagram', 'instagram'], base: 'https://www.instagram.com/' },
  linkedin: { keys: ['contact:linkedin', 'linkedin'], base: 'https://www.linkedin.com/company/' },
  twitter: { keys: ['contact:twitter', 'twitter', 'contact:x'], base: 'https://twitter.com/' },
  tiktok: { keys: ['contact:tiktok', 'tiktok'], base: 'https://www.tiktok.com/@' },
  youtube: { keys: ['contact:youtube', 'youtube'], base: 'https://www.youtube.com/' },
}

/** Mappers write either a URL or a bare handle ("@boulangerie", "boulangerie.martin"). */
function socialUrl(value: string, base: string): string {
  if (/^https?:\/\//i.test(value)) return value
  if (/^(www\.)?[a-z0-9-]+\.[a-z]{2,}\//i.test(value)) return `https://${value}`
  return base + value.replace(/^@/, '')
}

// Countries writing the house number after the street name.
const NUMBER_AFTER_STREET = new Set(['DE', 'AT', 'CH', 'NL', 'BE', 'IT', 'ES', 'PT', 'PL', 'CZ', 'SK', 'DK', 'SE', 'NO', 'FI', 'HU', 'HR', 'SI', 'RO', 'GR'])

const TYPE_KEYS = ['shop', 'amenity', 'craft', 'office', 'tourism', 'healthcare', 'leisure']

export function mapOverpassElement(
  element: OverpassElement,
  context: { category: ResolvedCategory | null; countryCode: string | null; town: string | null },
): Business | null {
  const tags = element.tags ?? {}
  // A lead without any name cannot be prospected; OSM has many unnamed shop nodes.
  const name = first(tags, 'name') ?? first(tags, 'brand') ?? first(tags, 'operator')
  if (!name) return null
  const countryCode = (tags['addr:country'] ?? context.countryCode)?.toUpperCase() ?? null
  const number = tags['addr:housenumber']
  const street = tags['addr:street'] ?? tags['addr:place']
  const streetLine = street ? (number ? (NUMBER_AFTER_STREET.has(countryCode ?? '') ? `${street} ${number}` : `${number} ${street}`) : street) : null
  const city = tags['addr:city'] ?? context.town
  const postalCode = tags['addr:postcode'] ?? null
  const postalLine = [postalCode, tags['addr:city']].filter(Boolean).join(' ') || null
  const address = tags['addr:full'] ?? ([streetLine, postalLine].filter(Boolean).join(', ') || null)
  const phone = first(tags, 'phone', 'contact:phone', 'contact:mobile', 'mobile')
  const website = first(tags, 'website', 'contact:website', 'url')
  const email = [...new Set(values(tags, 'email', 'contact:email').map((e) => e.replace(/^mailto:/i, '').toLowerCase()))]
  const socialMedia: Record<string, string> = {}
  for (const [network, { keys, base }] of Object.entries(SOCIAL_TAGS)) {
    const value = first(tags, ...keys)
    if (value) socialMedia[network] = socialUrl(value, base)
  }
  const siret = tags['ref:FR:SIRET']?.replace(/\s/g, '')
  const lat = element.lat ?? element.center?.lat ?? null
  const lon = element.lon ?? element.center?.lon ?? null
  return {
    source: 'osm',
    placeId: `${element.type}/${element.id}`,
    name,
    address,
    fullAddressArray: [streetLine, postalLine, tags['addr:country']].filter((p): p is string => !!p),
    city,
    postalCode,
    countryCode,
    latitude: lat,
    longitude: lon,
    businessTypes: context.category?.osm ? [context.category.label] : TYPE_KEYS.map((k) => tags[k]).filter((v): v is string => !!v && v !== 'yes'),
    website: website ? normalizeWebsite(website) : null,
    phone: phone ? formatPhone(phone, countryCode) : null,
    email,
    rating: null,
    reviewCount: null,
    googleMapsUrl: null,
    openingHours: tags['opening_hours'] ?? null,
    operationalState: null,
    socialMedia,
    siret: siret && /^\d{14}$/.test(siret) ? siret : null,
  }
}
