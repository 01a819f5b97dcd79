/**
 * The risk shield (issue 32 item 2): which of a company's registry risks an export's filters leave out, and how a
 * lead shows its risk (status, the deciding announcement's date, tribunal and link). Pure: the export's gates,
 * the lead pages, the API and the files call these.
 */
import type { RegistryRisk } from './registry-risk.ts'
import type { SearchFilters } from './search-filters.ts'

/** The reasons the export counts (exports.excluded) and its page names. */
export type RiskExclusion = 'risk_insolvency' | 'risk_radiated'

export type RiskFilters = Pick<SearchFilters, 'excludeInsolvent' | 'excludeRadiated'>

export function asksRiskShield(filters: RiskFilters): boolean {
  return filters.excludeInsolvent || filters.excludeRadiated
}

/** Why the filters leave this risk out, or null. A struck-off company is "radiated" even with a procedure open. */
export function riskExclusion(risk: RegistryRisk | null | undefined, filters: RiskFilters): RiskExclusion | null {
  if (!risk || risk.status === 'none') return null
  if (risk.status === 'radiee') return filters.excludeRadiated ? 'risk_radiated' : null
  return filters.excludeInsolvent ? 'risk_insolvency' : null
}

/** What a lead carries of its company's risk: shown in the table, the API and the files. */
export interface LeadRisk {
  status: 'sauvegarde' | 'redressement' | 'liquidation' | 'radiee'
  /** The judgment's date, else the announcement's publication (YYYY-MM-DD). */
  date: string
  tribunal: string | null
  url: string
  announcementId: string
}

/** The lead's risk from its company's, or null when nothing is open. */
export function leadRisk(risk: RegistryRisk | null | undefined): LeadRisk | null {
  if (!risk || risk.status === 'none' || !risk.announcement) return null
  const announcement = risk.announcement
  return {
    status: risk.status,
    date: announcement.judgment?.date ?? announcement.radiation?.date ?? announcement.publishedOn,
    tribunal: announcement.tribunal,
    url: announcement.url,
    announcementId: announcement.id,
  }
}
