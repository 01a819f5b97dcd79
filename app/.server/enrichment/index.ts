/**
 * The enrichment engine (no database): the website crawler (emails, social links, technologies, phones, SIRET) and
 * the French registry client. The export pipeline calls these; see ARCHITECTURE §5.
 */
export { createWebsiteCrawler, type WebsiteFindings } from './crawler.ts'
export { normalizePhone } from './phones.ts'
export { createRegistryClient } from './registry.ts'
