/**
 * The enrichment engine (no database): the website crawler (emails, social links, technologies, phones, SIRET) and
 * the French registry client. The export pipeline calls these; see ARCHITECTURE §5.
 */
export {
  createWebsiteCrawler,
  normalizeWebsiteUrl,
  DEFAULT_USER_AGENT,
  type WebsiteFindings,
  type WebsiteCrawler,
  type WebsiteCrawlerOptions,
  type CrawlOptions,
} from './crawler.ts'
export { normalizePhone } from './phones.ts'
export {
  createRegistryClient,
  type RegistryClient,
  type RegistryClientOptions,
  type RegistryLead,
  type RegistryResult,
  type AdminFrInfo,
  type AdminFrResult,
  type AdminFrDirigeant,
} from './registry.ts'
export { cleanSiret, isValidSiret, isValidSiren } from './siret.ts'
export { loadTechnologies, type DetectedTechnology } from './technologies.ts'
export type { SocialNetworkName } from './social.ts'
export type { LookupFn } from './ssrf.ts'
