/**
 * Position as evidence that a registry establishment and a map business are the same place (issue 22, "matching by
 * name, address and position"). Both sources geocode addresses, with errors of tens of metres in a town and more in
 * the countryside, so only the two ends speak: very close is strong evidence, far apart rules the pair out, and the
 * middle (or an unknown position) leaves the decision to the name and the address. Pure: shared by the coverage
 * panel and the registry export's map matcher.
 */

export interface Position {
  latitude: number | null
  longitude: number | null
}

/** Within this, two geocodings of the same shopfront: strong evidence. */
export const SAME_PLACE_METRES = 150
/** Beyond this, not the same establishment, whatever the name (a chain's other shop, a namesake in the next town). */
export const OTHER_PLACE_METRES = 2_000

const EARTH_RADIUS_METRES = 6_371_008.8

const known = (p: Position): p is { latitude: number; longitude: number } =>
  p.latitude !== null && p.longitude !== null && Number.isFinite(p.latitude) && Number.isFinite(p.longitude)

/** Great-circle distance in metres (haversine), or null when either position is unknown. */
export function distanceMetres(a: Position, b: Position): number | null {
  if (!known(a) || !known(b)) return null
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLon = (b.longitude - a.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)))
}

export type PositionEvidence = 'same_place' | 'other_place' | 'undecided'

/** What the two positions say about the pair (see the module comment). */
export function positionEvidence(a: Position, b: Position): PositionEvidence {
  const distance = distanceMetres(a, b)
  if (distance === null) return 'undecided'
  if (distance <= SAME_PLACE_METRES) return 'same_place'
  if (distance > OTHER_PLACE_METRES) return 'other_place'
  return 'undecided'
}

/** A registry coordinate as recherche-entreprises sends it (a decimal string, sometimes a number), else null. */
export function coordinate(value: unknown, limit: 90 | 180): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : null
}
