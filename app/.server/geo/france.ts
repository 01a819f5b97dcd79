/**
 * French administrative geography from @etalab/decoupage-administratif (official INSEE codes, postcodes,
 * populations, Licence Ouverte): the one place that loads it and looks regions, departments and communes up, for
 * the location pickers (search) and the lead sources alike. communes.json is 8.6 MB, so it is read on first use and
 * kept in memory.
 */
import { normalizeForSearch } from '#app/domain/text.ts'
import { readPackageJson } from './datasets.ts'

/** Where a region or department lies: metropolitan, overseas region (drom) or collectivité d'outre-mer (com). */
type Zone = 'metro' | 'drom' | 'com'

export interface Region {
  code: string
  nom: string
  zone: Zone
}

export interface Department {
  code: string
  nom: string
  region: string
  zone: Zone
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

let data: FranceData | undefined

export function franceData(): FranceData {
  data ??= loadFrance()
  return data
}

function loadFrance(): FranceData {
  type RawCommune = { code: string; nom: string; type: string; departement: string; region: string; codesPostaux?: string[]; population?: number }
  const dataset = <T>(file: string) => readPackageJson<T>(`@etalab/decoupage-administratif/data/${file}`)
  const regions = dataset<Region[]>('regions.json').map(({ code, nom, zone }) => ({ code, nom, zone }))
  const departments = dataset<Department[]>('departements.json').map(({ code, nom, region, zone, chefLieu }) => ({ code, nom, region, zone, chefLieu }))
  const communes = dataset<RawCommune[]>('communes.json')
    // Delegated/associated communes are historical; they would duplicate today's communes. Without a postcode
    // (uninhabited southern lands) nothing can be addressed there.
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
  return { regions, departments, communes, communeByCode: new Map(communes.map((c) => [c.code, c])) }
}

/** normalizeForSearch (the pickers' folding), with any other punctuation a space too: "Saint-Étienne" = "st etienne". */
export function normalizeName(value: string): string {
  return normalizeForSearch(value.replace(/[^\p{L}\p{N}'’‘ʼ`´\-‐‑‒–—]+/gu, ' '))
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

/** A part of France by INSEE codes; nothing given means the whole country. */
export interface FranceScope {
  regionCode?: string
  departmentCode?: string
}

function inScope(commune: Commune, scope: FranceScope): boolean {
  return (!scope.departmentCode || commune.departement === scope.departmentCode) && (!scope.regionCode || commune.region === scope.regionCode)
}

/**
 * Finds a commune by INSEE code, postcode or name. Names repeat (there are dozens of Saint-Denis), so the department
 * or region narrows the choice; otherwise the most populous wins. `accept` narrows further (the pickers list no
 * arrondissement nor collectivité d'outre-mer), before the most populous is chosen.
 */
export function findCommune(value: string | undefined, within: FranceScope = {}, accept: (commune: Commune) => boolean = () => true): Commune | undefined {
  if (!value) return undefined
  const { communes, communeByCode } = franceData()
  const wanted = (c: Commune) => inScope(c, within) && accept(c)
  const trimmed = value.trim()
  if (/^(\d{5}|2[ab]\d{3})$/i.test(trimmed)) {
    const byCode = communeByCode.get(trimmed.toUpperCase())
    if (byCode && wanted(byCode)) return byCode
    // Five digits that are not an INSEE code are most likely a postcode.
    return communes.find((c) => !c.isArrondissement && c.codesPostaux.includes(trimmed) && wanted(c))
  }
  const key = normalizeName(trimmed)
  return communes.find((c) => c.key === key && wanted(c))
}

/** The most populous communes of an area (whole communes only: an arrondissement is part of its city). */
export function topCommunes(scope: FranceScope, count: number): Commune[] {
  const out: Commune[] = []
  for (const c of franceData().communes) {
    if (c.isArrondissement || !inScope(c, scope)) continue
    // A country-wide search stays in metropolitan France: overseas results would surprise more than help.
    if (!scope.departmentCode && !scope.regionCode && c.departement.length > 2) continue
    out.push(c)
    if (out.length >= count) break
  }
  return out
}

/** Total population of an area (whole communes, so arrondissements are not counted twice). */
export function areaPopulation(scope: FranceScope): number {
  let total = 0
  for (const c of franceData().communes) if (!c.isArrondissement && inScope(c, scope)) total += c.population
  return total
}

export function departmentOf(commune: Commune): Department | undefined {
  return franceData().departments.find((d) => d.code === commune.departement)
}

/** The commune's everyday name: arrondissements ("Paris 11e Arrondissement") are addressed as their city. */
export function cityName(commune: Commune): string {
  return commune.isArrondissement ? commune.nom.replace(/\s+\d+(er|e)\s+Arrondissement$/i, '') : commune.nom
}
