/**
 * Picks the lead source from the configuration (types and defaults: app/.server/env-schema.server.ts):
 * LEADS_SOURCE=demo | osm | google.
 *
 *   demo    DEMO_WEBSITES_URL   base URL of the demo websites server (without it demo businesses have no website)
 *   osm     OVERPASS_URL        the Overpass API endpoint
 *           LEADATLAS_CONTACT_URL  contact URL put in the User-Agent, as Overpass operators ask
 *   google  GOOGLE_PLACES_API_KEY (required), GOOGLE_PLACES_URL
 */
import { createDemoSource } from './demo/source.ts'
import { createGoogleSource } from './google.ts'
import { createOsmSource } from './osm.ts'
import type { LeadSource } from './types.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'

export type { Business, LeadSource } from './types.ts'
export { LeadSourceError } from './types.ts'

function leadSourceUserAgent(config: Env): string {
  const contact = config.LEADATLAS_CONTACT_URL
  return contact ? `LeadAtlas/0.1 (+${contact})` : 'LeadAtlas/0.1'
}

export function getLeadSource(config: Env = validateEnv()): LeadSource {
  switch (config.LEADS_SOURCE) {
    case 'demo':
      return createDemoSource({ websitesBaseUrl: config.DEMO_WEBSITES_URL ?? null })
    case 'osm':
      return createOsmSource({ endpoint: config.OVERPASS_URL, userAgent: leadSourceUserAgent(config) })
    case 'google': {
      const apiKey = config.GOOGLE_PLACES_API_KEY
      // Fail at start-up rather than on the first search: a missing key is a deployment mistake.
      if (!apiKey) throw new Error('LEADS_SOURCE=google needs GOOGLE_PLACES_API_KEY')
      return createGoogleSource({ apiKey, baseUrl: config.GOOGLE_PLACES_URL })
    }
  }
}
