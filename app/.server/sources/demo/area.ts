/**
 * Where a demo search takes place and how many businesses it finds there. France searches use real communes (the
 * most populous of the chosen area); anything else becomes a single named place with fewer details.
 */
import { type Commune, areaPopulation, findCommune, findDepartment, findRegion, topCommunes } from '#app/.server/geo/france.ts'
import { hashString } from './prng.ts'
import type { SearchParams } from '../types.ts'

export type DemoArea =
  | { kind: 'france'; communes: Commune[]; population: number }
  | {
      kind: 'place'
      /** The most precise name the user gave, used as the businesses' town. */
      town: string | null
      french: boolean
      countryCode: string | null
      population: number
    }

// Rough populations for places we cannot look up, so result counts still grow with the area's size.
const PLACE_POPULATION = { city: 150_000, department: 800_000, region: 4_000_000, country: 40_000_000 }

export function resolveDemoArea(params: SearchParams): DemoArea {
  // The resolved code (resolve-criteria.ts): the country's own, whatever name or code the request sent.
  const countryCode = params.countryCode ?? null
  if (countryCode === 'FR' || !countryCode) {
    const area = franceArea(params)
    if (area) return area
  }
  const town = params.city?.trim() || params.department?.trim() || params.region?.trim() || null
  const level = params.city?.trim() ? 'city' : params.department?.trim() ? 'department' : params.region?.trim() ? 'region' : 'country'
  return {
    kind: 'place',
    town,
    french: countryCode === 'FR',
    countryCode,
    population: PLACE_POPULATION[level],
  }
}

/** Real communes for a search in France, or null when a level it names is not found there. */
function franceArea(params: SearchParams): DemoArea | null {
  const region = findRegion(params.region)
  const department = findDepartment(params.department)
  if ((params.department && !department) || (params.region && !region)) return null
  const commune = findCommune(params.city, { departmentCode: department?.code, regionCode: region?.code })
  if (params.city && !commune) return null
  if (commune) return { kind: 'france', communes: [commune], population: commune.population }
  if (department) return { kind: 'france', communes: topCommunes({ departmentCode: department.code }, 25), population: areaPopulation({ departmentCode: department.code }) }
  if (region) return { kind: 'france', communes: topCommunes({ regionCode: region.code }, 50), population: areaPopulation({ regionCode: region.code }) }
  return { kind: 'france', communes: topCommunes({}, 60), population: areaPopulation({}) }
}

/**
 * How many businesses an area holds for a category: from 25 (a village) to 400 (a country), growing with the log of
 * the population, scaled by how common the sector is (all sectors > a known sector > a free-text niche).
 */
export function demoResultCount(population: number, sectorKey: string | null, freeText: boolean): number {
  const scale = Math.min(1, Math.max(0, (Math.log10(Math.max(population, 1)) - 3.3) / (7.8 - 3.3)))
  const spread = hashString(`count:${sectorKey ?? 'all'}`) / 4294967296
  const factor = sectorKey === null ? 1 : freeText ? 0.35 + 0.4 * spread : 0.55 + 0.45 * spread
  return Math.round(Math.min(400, Math.max(25, (25 + 375 * scale) * factor)))
}

/**
 * Shares `total` businesses among communes by population (sub-linear, so smaller towns still appear), never giving a
 * commune more than its own capacity — a city search shows the same businesses the wider search showed there, plus more.
 */
export function allocate(total: number, weights: number[], capacities: number[]): number[] {
  const alloc = weights.map(() => 0)
  let remaining = total
  while (remaining > 0) {
    const active = weights.map((_, i) => i).filter((i) => (alloc[i] as number) < (capacities[i] as number))
    if (active.length === 0) break
    const sum = active.reduce((s, i) => s + (weights[i] as number), 0)
    let given = 0
    for (const i of active) {
      const share = Math.floor((remaining * (weights[i] as number)) / sum)
      const give = Math.min(share, (capacities[i] as number) - (alloc[i] as number))
      alloc[i] = (alloc[i] as number) + give
      given += give
    }
    if (given === 0) {
      const best = active.reduce((a, b) => ((weights[b] as number) > (weights[a] as number) ? b : a))
      alloc[best] = (alloc[best] as number) + 1
      given = 1
    }
    remaining -= given
  }
  return alloc
}
