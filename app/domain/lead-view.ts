/**
 * One lead as the export pages show it: built by the server's read model (app/.server/exports/views.ts) and drawn by
 * the leads table, so both sides share the type without the browser code reaching into server modules.
 */
import type { LeadEnrichmentStatus } from './enrichment.ts'
import type { PhoneDisplay, WebsiteDisplay } from './lead-format.ts'
import type { PhoneType } from './phone-sources.ts'
import type { LeadRisk } from './risk-shield.ts'

export interface ExportLeadView {
  id: string
  name: string
  city: string | null
  businessTypes: string[]
  phone: PhoneDisplay | null
  /** The main number's line type, when the crawl or the source typed it. */
  phoneType: PhoneType | null
  /** The business's other numbers, in the order found. */
  otherPhones: Array<PhoneDisplay & { type: PhoneType }>
  website: WebsiteDisplay | null
  email: string[]
  technologies: Record<string, string | string[]>
  socialMedia: Record<string, string>
  rating: number | null
  reviewCount: number | null
  statuses: Record<string, LeadEnrichmentStatus>
  /** Option key -> date of the earlier purchase this export reused for 0 credits. */
  reused: Record<string, string>
  /** The registry match says the business is closed (establishment fermé or legal unit cessée). */
  registryClosed: boolean
  /** A registry-first export's establishment the map does not know: delivered with its registry data only. */
  notFoundOnline: boolean
  /** Its company's open collective procedure or radiation per BODACC, read with the page. */
  risk: LeadRisk | null
  /** The business as a do-not-contact entry (`<source>:<place id>`), for "Never export this business". */
  businessRef: string
}
