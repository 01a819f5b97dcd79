/**
 * France's official hierarchy from @etalab/decoupage-administratif (Licence Ouverte): the 18
 * current regions (13 metropolitan + 5 overseas), their departments, and current communes.
 * Names are the official French names in both interface languages.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { normalizeForSearch } from '#app/domain/text.ts'
import { findPlace, sortByName, toPlace, type Place } from './places.ts'

interface RegionRecord { code: string; nom: string; zone: string }
interface DepartmentRecord { code: string; nom: string; region: string; zone: string }
interface CommuneRecord {
  code: string
  nom: string
  type: string
  departement: string
  region: string
  codesPostaux?: string[]
  population?: number
}

export interface Commune {
  inseeCode: string
  name: string
  departmentCode: string
  regionCode: string
  postcodes: string[]
  population: number | null
}

export interface FranceIndex {
  regions: readonly Place[]
  departmentsByRegion: ReadonlyMap<string, readonly Place[]>
  /** Every department of the 18 regions, for lookups without a region. */
  departments: readonly Place[]
  departmentRegion: ReadonlyMap<string, string>
  /** Communes per department code, most populous first: the order the city picker shows. */
  communesByDepartment: ReadonlyMap<string, readonly Place[]>
  communeByInsee: ReadonlyMap<string, Commune>
}

const require = createRequire(import.meta.url)

function readDataset<T>(file: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(`@etalab/decoupage-administratif/data/${file}`), 'utf8')) as T
}

// Collectivités d'outre-mer (zone "com") are not regions in the 2016 reform sense: only
// metropolitan and overseas regions (drom) are listed.
const REGION_ZONES = new Set(['metro', 'drom'])

let index: FranceIndex | undefined

/** Loads the datasets on first use (communes.json is 8.6 MB) and keeps the indexes in memory. */
export function france(): FranceIndex {
  index ??= buildIndex()
  return index
}

function buildIndex(): FranceIndex {
  const regionRecords = readDataset<RegionRecord[]>('regions.json').filter((r) => REGION_ZONES.has(r.zone))
  const regionCodes = new Set(regionRecords.map((r) => r.code))
  const departmentRecords = readDataset<DepartmentRecord[]>('departements.json').filter((d) => regionCodes.has(d.region))

  const departmentsByRegion = new Map<string, Place[]>()
  const departmentRegion = new Map<string, string>()
  for (const department of departmentRecords) {
    const list = departmentsByRegion.get(department.region) ?? []
    list.push(toPlace(department.nom, department.code))
    departmentsByRegion.set(department.region, list)
    departmentRegion.set(department.code, department.region)
  }
  for (const list of departmentsByRegion.values()) sortByName(list, 'fr')

  const communesByDepartment = new Map<string, Commune[]>()
  const communeByInsee = new Map<string, Commune>()
  for (const record of readDataset<CommuneRecord[]>('communes.json')) {
    // Delegated/associated communes and Paris/Lyon/Marseille arrondissements are not cities.
    if (record.type !== 'commune-actuelle' || !departmentRegion.has(record.departement)) continue
    const commune: Commune = {
      inseeCode: record.code,
      name: record.nom,
      departmentCode: record.departement,
      regionCode: record.region,
      postcodes: record.codesPostaux ?? [],
      population: record.population ?? null,
    }
    communeByInsee.set(commune.inseeCode, commune)
    const list = communesByDepartment.get(commune.departmentCode) ?? []
    list.push(commune)
    communesByDepartment.set(commune.departmentCode, list)
  }
  const collator = new Intl.Collator('fr', { sensitivity: 'base' })
  const communePlaces = new Map<string, Place[]>()
  for (const [code, communes] of communesByDepartment) {
    communes.sort((a, b) => (b.population ?? 0) - (a.population ?? 0) || collator.compare(a.name, b.name))
    communePlaces.set(code, communes.map((c) => toPlace(c.name, c.inseeCode)))
  }

  return {
    regions: sortByName(regionRecords.map((r) => toPlace(r.nom, r.code)), 'fr'),
    departmentsByRegion,
    departments: sortByName(departmentRecords.map((d) => toPlace(d.nom, d.code)), 'fr'),
    departmentRegion,
    communesByDepartment: communePlaces,
    communeByInsee,
  }
}

export function findRegion(nameOrCode: string): Place | undefined {
  return findPlace(france().regions, nameOrCode)
}

/** A department by name or code, within `regionCode` when given. */
export function findDepartment(nameOrCode: string, regionCode?: string): Place | undefined {
  const index = france()
  const candidates = regionCode === undefined ? index.departments : (index.departmentsByRegion.get(regionCode) ?? [])
  return findPlace(candidates, nameOrCode)
}

/**
 * A commune by name or INSEE code, within `departmentCode` when given; without a department a
 * homonym ("Saint-Martin") resolves to the most populous commune of that name.
 */
export function findCommune(nameOrCode: string, departmentCode?: string): Commune | undefined {
  const index = france()
  const byCode = index.communeByInsee.get(nameOrCode.trim().toUpperCase())
  if (byCode && (departmentCode === undefined || byCode.departmentCode === departmentCode)) return byCode
  const key = normalizeForSearch(nameOrCode)
  const departments = departmentCode === undefined ? [...index.communesByDepartment.keys()] : [departmentCode]
  let best: Commune | undefined
  for (const code of departments) {
    const place = index.communesByDepartment.get(code)?.find((p) => p.key === key)
    const commune = place?.code === undefined ? undefined : index.communeByInsee.get(place.code)
    if (commune && (!best || (commune.population ?? 0) > (best.population ?? 0))) best = commune
  }
  return best
}
