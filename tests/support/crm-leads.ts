// A lead as the API gives it (ApiLeadSchema's example), with the parts a CRM push reads: what the adapters' tests,
// the push tests and the CRM bench build their records from.
import type { ApiLead } from '#app/domain/api-lead.ts'

export interface LeadShape {
  id?: string
  name?: string
  phone?: string | null
  website?: string | null
  emails?: string[]
  siret?: string | null
}

/** A lead as the API gives it (ApiLeadSchema's example), with the parts a push reads. */
export function apiLead(shape: LeadShape = {}): ApiLead {
  const emails = shape.emails ?? ['contact@boulangerie-paul.fr']
  const registry = shape.siret ? ({ status: 'success', reused_at: null, siret: shape.siret, siren: shape.siret.slice(0, 9), naf_code: '10.71C' } as NonNullable<ApiLead['enrichments']['admin_fr_info']>) : null
  return {
    id: shape.id ?? '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77',
    position: 0,
    name: shape.name ?? 'Boulangerie Paul',
    full_address: '12 rue de la Paix, 75002 Paris',
    city: 'Paris',
    postal_code: '75002',
    country_code: 'FR',
    phone: shape.phone === undefined ? '+33 1 23 45 67 89' : shape.phone,
    phone_e164: shape.phone === undefined ? '+33123456789' : shape.phone,
    website: shape.website === undefined ? 'https://boulangerie-paul.fr' : shape.website,
    latitude: 48.8686,
    longitude: 2.3314,
    rating: 4.5,
    review_count: 128,
    business_types: ['bakery'],
    google_maps_url: null,
    working_hours: 'Mon-Sat 07:00-19:30',
    operational_state: 'OPERATIONAL',
    description: null,
    source: 'osm',
    source_id: 'node/123',
    source_url: 'https://www.openstreetmap.org/node/123',
    enrichments: {
      phone: null,
      website: null,
      technologies: null,
      social: null,
      email: emails.length
        ? { status: 'success', reused_at: null, email: emails.map((address) => ({ address, quality: null, source: { page: 'https://boulangerie-paul.fr/contact', found_at: null } })) }
        : null,
      admin_fr_info: registry,
    },
  }
}
