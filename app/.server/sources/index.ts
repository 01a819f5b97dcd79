/**
 * Picks the lead source from the configuration (types and defaults: app/.server/env-schema.server.ts):
 * LEADS_SOURCE=auto | demo | osm | google.
 *
 *   auto    resolved once at start-up into osm or demo (app/.server/sources/selection.ts): from then on LEADS_SOURCE
 *           reads as the resolved source. Unresolved (no start-up ran: scripts, tests) it reads as demo.
 *   demo    DEMO_WEBSITES_URL   base URL of the demo websites server (without it demo businesses have no website)
 *   osm     OVERPASS_URL        the Overpass API endpoint
 *           LEADATLAS_CONTACT_URL  contact put in the User-Agent, as Overpass operators ask (default: the public
 *                                  APP_URL, else the product's bot page; app/.server/sources/user-agent.ts)
 *   google  GOOGLE_PLACES_API_KEY (required), GOOGLE_PLACES_URL
 */
import { createDemoSource } from './demo/source.ts'
import { createGoogleSource } from './google.ts'
import { createOsmSource } from './osm.ts'
import { getSourceSelection } from './selection.ts'
import type { LeadSource, LeadSourceName } from './types.ts'
import { leadSourceUserAgent } from './user-agent.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'

export type { Business, LeadSource } from './types.ts'
export { LeadSourceError } from './types.ts'

/** The source LEADS_SOURCE stands for now: `auto` is what start-up resolved, demo when it never ran. */
export function effectiveLeadSource(config: Env = validateEnv()): LeadSourceName {
  if (config.LEADS_SOURCE !== 'auto') return config.LEADS_SOURCE
  return getSourceSelection()?.source ?? 'demo'
}

export function getLeadSource(config: Env = validateEnv()): LeadSource {
  switch (effectiveLeadSource(config)) {
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
