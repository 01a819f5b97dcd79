/**
 * Picks the lead source from the environment: LEADS_SOURCE=demo (default) | osm | google.
 *
 *   demo    DEMO_WEBSITES_URL   base URL of the demo websites server (without it demo businesses have no website)
 *   osm     OVERPASS_URL        default https://overpass-api.de/api/interpreter
 *           LEADATLAS_CONTACT_URL  contact URL put in the User-Agent, as Overpass operators ask
 *   google  GOOGLE_PLACES_API_KEY (required), GOOGLE_PLACES_URL default https://places.googleapis.com
 */
import { createDemoSource } from './demo/source.ts'
import { createGoogleSource } from './google.ts'
import { createOsmSource } from './osm.ts'
import type { LeadSource } from './types.ts'
import { envRecord } from '#app/.server/env.server.ts'

export type { Business, LeadSource } from './types.ts'
export { LeadSourceError } from './types.ts'

const DEFAULT_OVERPASS_URL = 'https://overpass-api.de/api/interpreter'
const DEFAULT_GOOGLE_PLACES_URL = 'https://places.googleapis.com'

function leadSourceUserAgent(env: NodeJS.ProcessEnv = envRecord()): string {
  const contact = env.LEADATLAS_CONTACT_URL?.trim()
  return contact ? `LeadAtlas/0.1 (+${contact})` : 'LeadAtlas/0.1'
}

export function getLeadSource(env: NodeJS.ProcessEnv = envRecord()): LeadSource {
  const name = (env.LEADS_SOURCE?.trim() || 'demo').toLowerCase()
  switch (name) {
    case 'demo':
      return createDemoSource({ websitesBaseUrl: env.DEMO_WEBSITES_URL?.trim() || null })
    case 'osm':
      return createOsmSource({ endpoint: env.OVERPASS_URL?.trim() || DEFAULT_OVERPASS_URL, userAgent: leadSourceUserAgent(env) })
    case 'google': {
      const apiKey = env.GOOGLE_PLACES_API_KEY?.trim()
      // Fail at start-up rather than on the first search: a missing key is a deployment mistake.
      if (!apiKey) throw new Error('LEADS_SOURCE=google needs GOOGLE_PLACES_API_KEY')
      return createGoogleSource({ apiKey, baseUrl: env.GOOGLE_PLACES_URL?.trim() || DEFAULT_GOOGLE_PLACES_URL })
    }
    default:
      throw new Error(`Unknown LEADS_SOURCE "${env.LEADS_SOURCE}": use demo, osm or google`)
  }
}
