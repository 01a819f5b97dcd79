/**
 * One process of a deployment, for tests/integration/global-limits-processes.test.ts: crawls CRAWLS sites of the
 * website at SITE_URL and asks the Overpass at OVERPASS_URL for QUERIES areas (from FIRST_CITY), through the real crawler and OSM source
 * with the deployment's limits (DATABASE_URL). Prints "ready" once built, starts on a line on stdin (so that the
 * processes run at the same time), prints what it got as JSON and exits.
 *
 *   DATABASE_URL=… SITE_URL=http://127.0.0.1:1234 OVERPASS_URL=http://127.0.0.1:5678/api/interpreter npx tsx tests/support/limits-process.ts
 */
import { once } from 'node:events'
import { createWebsiteCrawler } from '#app/.server/enrichment/crawler.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { createOsmSource } from '#app/.server/sources/osm.ts'
import type { ResolvedCategory } from '#app/.server/sources/types.ts'

const BAKERY: ResolvedCategory = { id: 'shop-bakery', label: 'Boulangerie', osm: { key: 'shop', value: 'bakery' } }
const CITIES = ['Lyon', 'Villeurbanne', 'Bron', 'Vénissieux', 'Caluire-et-Cuire', 'Marseille']

const site = new URL(process.env.SITE_URL as string)
const crawls = Number(process.env.CRAWLS ?? 6)
const queries = Number(process.env.QUERIES ?? 3)
const label = process.env.LABEL ?? String(process.pid)
// Each process asks for areas of its own (no answer cached or shared between them).
const firstCity = Number(process.env.FIRST_CITY ?? 0)

async function areaCount(city: string): Promise<number> {
  const resolution = resolveCriteria({ sector: '', country: 'France', countryCode: 'FR', region: '', department: '', city })
  if (!resolution.ok) throw new Error(`search refused: ${resolution.field}`)
  let found = 0
  for await (const business of osm.search(searchParamsOf(resolution.criteria, 'fr'), BAKERY, {})) if (business) found++
  return found
}

const crawler = createWebsiteCrawler({ allowHosts: [site.host], perDomainConcurrency: 2, retryDelayMs: -1, preloadTechnologies: true })
const osm = createOsmSource({ endpoint: process.env.OVERPASS_URL as string, userAgent: 'LeadAtlas/0.1 (+https://leadatlas.test/contact)' })
console.log('ready')
await once(process.stdin, 'data')

const [pages, areas] = await Promise.all([
  Promise.all(Array.from({ length: crawls }, (_, i) => crawler.crawl(`${site.origin}/${label}-${i}/`).then((found) => found.pages.length))),
  Promise.all(CITIES.slice(firstCity, firstCity + queries).map(areaCount)),
])
await crawler.close()
console.log(JSON.stringify({ pages, areas }))
process.exit(0)
