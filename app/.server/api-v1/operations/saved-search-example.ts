/**
 * The documented body of POST /saved-searches: a map search. The schema's field examples alone would send `registry`
 * with `criteria`, which the operation refuses (one or the other).
 */
export const CREATE_SAVED_SEARCH_EXAMPLE = {
  name: 'Bakeries – Brest, weekly',
  criteria: { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' },
  filters: { has_website: true, exclude_insolvent: true, exclude_radiated: true },
  enrichments: ['phone', 'website', 'email'],
  schedule: { kind: 'weekly', weekday: 1, hour: 8, time_zone: 'Europe/Paris' },
}
