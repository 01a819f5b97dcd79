/**
 * The identity of one demo business, shared by the demo source and the demo websites server. Everything a website
 * needs (name, town, street address, phone, SIRET…) is derived from the business's URL slug:
 *
 *   <name-slug>-<INSEE code>-<seed>      e.g. boulangerie-martin-69123-01x2k9p
 *   <name-slug>-<seed>                   outside France (no address on the site)
 *
 * where <seed> is the business's 32-bit seed in base 36, always 7 characters.
 *
 * so the site served for a slug always matches the business that links to it, without any shared state.
 */
import { type Commune, cityName, franceData } from '#app/.server/geo/france.ts'
import { communeCentre, phoneZone } from '#app/.server/geo/france-centres.ts'
import { rngFor } from './prng.ts'
import { STREETS, slugify } from './vocabulary.ts'

const MAX_NAME_SLUG = 60

export function demoSlug(name: string, commune: Commune | null, seed: number): string {
  let nameSlug = slugify(name) || 'entreprise'
  if (nameSlug.length > MAX_NAME_SLUG) nameSlug = nameSlug.slice(0, MAX_NAME_SLUG).replace(/-[^-]*$/, '')
  return [nameSlug, commune?.code.toLowerCase(), seedToken(seed)].filter(Boolean).join('-')
}

/** Fixed width, so a short last word of an arbitrary slug ("…-quux") is never mistaken for a seed. */
export function seedToken(seed: number): string {
  return (seed >>> 0).toString(36).padStart(7, '0')
}

export interface ParsedDemoSlug {
  nameSlug: string
  commune: Commune | null
  seed: number
}

/** Inverse of {@link demoSlug}. Any other slug still parses (seeded by its hash) so every URL renders a site. */
export function parseDemoSlug(slug: string): ParsedDemoSlug {
  const parts = slug.toLowerCase().split('-').filter(Boolean)
  const seedPart = parts[parts.length - 1]
  if (parts.length >= 2 && seedPart && /^[0-9a-z]{7}$/.test(seedPart)) {
    const seed = parseInt(seedPart, 36)
    if (seed <= 0xffffffff) {
      const maybeCode = (parts[parts.length - 2] as string).toUpperCase()
      const commune = /^(\d{5}|2[AB]\d{3})$/.test(maybeCode) ? (franceData().communeByCode.get(maybeCode) ?? null) : null
      const nameParts = parts.slice(0, commune ? -2 : -1)
      if (nameParts.length > 0) return { nameSlug: nameParts.join('-'), commune, seed }
    }
  }
  let hash = 0
  for (const ch of slug) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) >>> 0
  return { nameSlug: parts.join('-') || 'entreprise', commune: null, seed: hash }
}

export interface DemoDetails {
  /** "12 rue de la République" */
  streetAddress: string | null
  postalCode: string | null
  city: string | null
  /** French national format, "01 42 68 53 07"; null outside France. */
  phone: string | null
  /** Whether the source lists the phone (when not, enrichment can still find it on the website). */
  phoneListed: boolean
  hasWebsite: boolean
  rating: number | null
  reviewCount: number | null
  operationalState: 'OPERATIONAL' | 'CLOSED_TEMPORARILY'
  latitude: number | null
  longitude: number | null
  /** Luhn-valid 14 digits, shown in the site's legal notice when `siretOnSite`. */
  siret: string
  legalForm: 'SARL' | 'SAS' | 'EURL' | 'EI'
  foundedYear: number
}

// Real, commonly seen area prefixes per zone (digits 3-4 of the national number), so numbers look local.
const AREA_PREFIXES: Record<string, number[]> = {
  '1': [30, 34, 39, 40, 42, 43, 44, 45, 46, 47, 48, 53, 55, 56, 58, 60, 64, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79],
  '2': [31, 32, 33, 35, 37, 38, 40, 41, 43, 47, 51, 54, 96, 97, 98, 99],
  '3': [20, 21, 22, 23, 26, 27, 28, 80, 81, 83, 84, 85, 86, 87, 88, 89],
  '4': [42, 50, 67, 68, 70, 72, 73, 75, 76, 77, 78, 79, 90, 91, 92, 93, 94, 95, 99],
  '5': [34, 45, 46, 49, 53, 55, 56, 57, 58, 59, 61, 62, 63, 65, 67],
}
// Overseas departments dial a 4-digit prefix from mainland France.
const OVERSEAS_PREFIXES: Record<string, string> = { GP: '0590', MQ: '0596', GF: '0594', RE: '0262', YT: '0269' }

/** Rejects digit runs that read as placeholders ("11 11 11", "12 34 56"). */
function looksFake(digits: string): boolean {
  return /(\d)\1{3}/.test(digits) || '0123456789'.includes(digits.slice(0, 4)) || '9876543210'.includes(digits.slice(0, 4))
}

function pairs(digits: string): string {
  return digits.replace(/(\d{2})(?=\d)/g, '$1 ')
}

function frenchPhone(seed: number, commune: Commune): string {
  const rng = rngFor(seed, 'phone')
  let tail: string
  do {
    tail = String(rng.int(0, 999_999)).padStart(6, '0')
  } while (looksFake(tail))
  const zone = phoneZone(commune)
  if (zone.length === 2) {
    const prefix = OVERSEAS_PREFIXES[zone] as string
    // 0269 numbers are allocated in the 0269 6x block; the others accept any digit here.
    const next = zone === 'YT' ? `6${tail.slice(1, 2)}` : tail.slice(0, 2)
    return `${prefix} ${next} ${pairs(tail.slice(2))}`
  }
  // About one business in seven answers on a "box" number (09), as in real listings.
  if (rng.chance(0.14)) return pairs(`09${rng.int(50, 89)}${tail}`)
  return pairs(`0${zone}${rng.pick(AREA_PREFIXES[zone] as number[])}${tail}`)
}

/**
 * The owner's mobile some small businesses print on their contact page (about one in three, "06 …"): a second
 * business number, so the phone enrichment has a mobile and a landline to tell apart. Null when none is printed.
 */
export function demoMobile(seed: number, hasPhone: boolean): string | null {
  const rng = rngFor(seed, 'mobile')
  if (!hasPhone || !rng.chance(0.35)) return null
  let tail: string
  do {
    tail = String(rng.int(0, 999_999)).padStart(6, '0')
  } while (looksFake(tail))
  return pairs(`06${rng.int(10, 89)}${tail}`)
}

/** SIRET = SIREN (9 digits, Luhn) + NIC (5 digits), the 14 digits Luhn-valid as well. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

export function completeLuhn(partial: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(partial + d)) return partial + d
  throw new Error('unreachable')
}

function demoSiret(seed: number): string {
  const rng = rngFor(seed, 'siret')
  const siren = completeLuhn(`${rng.int(3, 9)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`)
  return completeLuhn(`${siren}000${rng.int(1, 9)}`)
}

export function demoDetails(seed: number, commune: Commune | null): DemoDetails {
  const rng = rngFor(seed, 'details')
  const hasReviews = rng.chance(0.88)
  // Skewed towards 4.x like real listings: 5 - 2·u^1.6 has its mean near 4.2.
  const rating = hasReviews ? Math.round((5 - 2 * Math.pow(rng.next(), 1.6)) * 10) / 10 : null
  const reviewCount = hasReviews ? Math.max(1, Math.floor(Math.exp(rng.next() * 6.2))) : null
  const common = {
    hasWebsite: rng.chance(commune ? 0.7 : 0.5),
    rating,
    reviewCount,
    operationalState: rng.chance(0.03) ? ('CLOSED_TEMPORARILY' as const) : ('OPERATIONAL' as const),
    siret: demoSiret(seed),
    legalForm: rng.weighted([['SARL', 4], ['SAS', 3], ['EURL', 2], ['EI', 2]] as const),
    foundedYear: rng.int(1962, 2022),
    phoneListed: rng.chance(0.88),
  }
  if (!commune) {
    return { ...common, streetAddress: null, postalCode: null, city: null, phone: null, latitude: null, longitude: null }
  }
  const address = rngFor(seed, 'address')
  const number = Math.min(address.int(1, 60), address.int(1, 180))
  const bis = address.chance(0.06) ? ' bis' : ''
  const street = address.pick(STREETS)
  const postalCode = address.pick(commune.codesPostaux)
  const centre = communeCentre(commune)
  const geo = rngFor(seed, 'geo')
  // Spread around the centre in proportion to the town's size (≈ 0.5 km for a village, 5 km for Paris).
  const radius = Math.min(0.05, Math.max(0.004, Math.sqrt(commune.population) / 30_000))
  const round6 = (n: number) => Math.round(n * 1e6) / 1e6
  return {
    ...common,
    streetAddress: `${number}${bis} ${street}`,
    postalCode,
    city: cityName(commune),
    phone: frenchPhone(seed, commune),
    latitude: centre ? round6(centre.lat + (geo.next() * 2 - 1) * radius) : null,
    longitude: centre ? round6(centre.lng + (geo.next() * 2 - 1) * radius * 1.4) : null,
  }
}
