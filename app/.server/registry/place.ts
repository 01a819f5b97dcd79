/**
 * A registry place (INSEE codes) as the search form would send it: the names of its region, department and commune,
 * resolved by the one module that resolves searches (resolve-criteria.ts), so the plan rules and the demo map read
 * it exactly as they read the search page's.
 */
import type { RegistryPlace } from '#app/domain/registry-search.ts'
import { franceData, type Commune } from '#app/.server/geo/france.ts'
import { resolveCriteria, type ResolvedCriteria } from '#app/.server/search/resolve-criteria.ts'

/** Null for a code our geography does not know (a postcode: its most populous commune). */
export function registryPlaceCriteria(place: RegistryPlace, sector = ''): ResolvedCriteria | null {
  const { regions, departments, communes, communeByCode } = franceData()
  let commune: Commune | undefined
  if (place.kind === 'commune') commune = communeByCode.get(place.code)
  if (place.kind === 'postcode') commune = communes.find((c) => !c.isArrondissement && c.codesPostaux.includes(place.code))
  if ((place.kind === 'commune' || place.kind === 'postcode') && !commune) return null
  const departmentCode = place.kind === 'department' ? place.code : commune?.departement
  const department = departmentCode ? departments.find((d) => d.code === departmentCode) : undefined
  if (departmentCode && !department) return null
  const regionCode = place.kind === 'region' ? place.code : (department?.region ?? commune?.region)
  const region = regionCode ? regions.find((r) => r.code === regionCode) : undefined
  if (regionCode && !region) return null
  const resolution = resolveCriteria({
    sector,
    country: 'France',
    countryCode: 'FR',
    region: region?.nom ?? '',
    department: department?.nom ?? '',
    city: commune?.nom ?? '',
  })
  return resolution.ok ? resolution.criteria : null
}
