import { describe, expect, test } from 'vitest'
import { coordinate, distanceMetres, OTHER_PLACE_METRES, positionEvidence, SAME_PLACE_METRES } from '#app/domain/geo-distance.ts'

// Brest, place de la Liberté; one degree of latitude is ≈ 111.2 km.
const BREST = { latitude: 48.3904, longitude: -4.4861 }
const north = (metres: number) => ({ latitude: BREST.latitude + metres / 111_195, longitude: BREST.longitude })

describe('distanceMetres', () => {
  test('measures along the meridian and between two towns', () => {
    expect(distanceMetres(BREST, north(1_000))).toBeCloseTo(1_000, 0)
    // Brest → Quimper is about 57 km as the crow flies.
    const quimper = { latitude: 47.9961, longitude: -4.1024 }
    expect(distanceMetres(BREST, quimper)! / 1000).toBeGreaterThan(50)
    expect(distanceMetres(BREST, quimper)! / 1000).toBeLessThan(60)
    expect(distanceMetres(BREST, BREST)).toBe(0)
  })

  test('is null when a position is unknown', () => {
    expect(distanceMetres(BREST, { latitude: null, longitude: -4.48 })).toBeNull()
    expect(distanceMetres({ latitude: 48.39, longitude: null }, BREST)).toBeNull()
  })
})

describe('positionEvidence', () => {
  test('very close is the same place, far apart another, the middle and the unknown undecided', () => {
    expect(positionEvidence(BREST, north(40))).toBe('same_place')
    expect(positionEvidence(BREST, north(SAME_PLACE_METRES - 1))).toBe('same_place')
    expect(positionEvidence(BREST, north(SAME_PLACE_METRES + 5))).toBe('undecided')
    expect(positionEvidence(BREST, north(OTHER_PLACE_METRES - 5))).toBe('undecided')
    expect(positionEvidence(BREST, north(OTHER_PLACE_METRES + 5))).toBe('other_place')
    expect(positionEvidence(BREST, { latitude: null, longitude: null })).toBe('undecided')
  })
})

describe('coordinate', () => {
  test('reads the registry\'s decimal strings and numbers, refuses the rest', () => {
    expect(coordinate('48.386589', 90)).toBe(48.386589)
    expect(coordinate(-4.5, 180)).toBe(-4.5)
    expect(coordinate('', 90)).toBeNull()
    expect(coordinate(null, 90)).toBeNull()
    expect(coordinate('abc', 90)).toBeNull()
    expect(coordinate('95', 90)).toBeNull()
  })
})
