// Discovery bench (issue "Contact quality", item 2; per country group and the round-4 goals: issue 28 item 12): recall and precision of the website extraction per field over
// the hand-written corpus of small-business sites in tests/fixtures/sites (expected.json per site, written by hand).
// The corpus is served on loopback (tests/support/corpus-server.ts) and crawled by the real crawler, which finds
// each site's contact / legal / about pages itself (links in six languages, robots.txt Sitemap: lines, sitemaps);
// the extraction is the crawler's own (findings.ts) over the pages it fetched. Also in the same run: the homepage
// alone (the product before it crawled contact / legal pages) and every page of each fixture (the extraction's
// ceiling, as if discovery were perfect).
//
//   npx tsx bench/discovery.ts [--details]   (--details: every miss and false positive, not only the first 12)
import fs from 'node:fs'
import { createWebsiteCrawler } from '#app/.server/enrichment/crawler.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { startCorpusServer } from '#tests/support/corpus-server.ts'
import { detectTechnologies } from '#app/.server/enrichment/technologies.ts'
import { type CorpusSite, crawlCountry, type FieldScore, loadCorpus, precision, recall, scoreCorpus } from '#tests/support/site-corpus.ts'
import { printTable } from './lib/table.ts'

const DETAILS = process.argv.includes('--details')
const LIST_LIMIT = DETAILS ? Infinity : 12

const pct = (value: number) => `${(value * 100).toFixed(1)}`

function sum(scores: FieldScore[], fields: string[], name: string): FieldScore {
  const picked = scores.filter((s) => fields.includes(s.field))
  return {
    field: name,
    expected: picked.reduce((n, s) => n + s.expected, 0),
    found: picked.reduce((n, s) => n + s.found, 0),
    truePositives: picked.reduce((n, s) => n + s.truePositives, 0),
    misses: picked.flatMap((s) => s.misses.map((m) => `${s.field} ${m}`)),
    falsePositives: picked.flatMap((s) => s.falsePositives.map((m) => `${s.field} ${m}`)),
    trapsTaken: picked.flatMap((s) => s.trapsTaken),
  }
}

function withTotals(scores: FieldScore[]): FieldScore[] {
  const social = ['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'tiktok']
  const out = scores.flatMap((s) => (s.field === 'tiktok' ? [s, sum(scores, social, 'social (all)')] : [s]))
  return out.flatMap((s) => (s.field === 'siren' ? [s, sum(scores, ['siret', 'siren'], 'siren/siret')] : [s]))
}

function printList(title: string, values: string[]) {
  if (values.length === 0) return
  console.log(`  ${title} (${values.length}):`)
  for (const value of values.slice(0, LIST_LIMIT)) console.log(`    ${value}`)
  if (values.length > LIST_LIMIT) console.log(`    … ${values.length - LIST_LIMIT} more (--details)`)
}

/** Crawls every site of the corpus on loopback; the fixture files each crawl fetched, and the pages it missed. */
async function crawlCorpus(corpus: CorpusSite[]) {
  const server = await startCorpusServer(corpus)
  const crawler = createWebsiteCrawler({ allowHosts: server.hosts, lookup: server.lookup, hostConcurrency: Object.fromEntries(server.hosts.map((h) => [h, 4])) })
  const crawledFiles = new Map<string, string[]>()
  const missed: string[] = []
  const decoysFetched: string[] = []
  try {
    for (const site of corpus) {
      const findings = await crawler.crawl(server.startUrl(site), { countryCode: crawlCountry(site) })
      const files = findings.pages.map((url) => server.fileOf(site, url)).filter((file): file is string => file !== null)
      crawledFiles.set(site.name, files)
      missed.push(...site.pages.filter((page) => !files.includes(page.file)).map((page) => `${site.name}: ${page.file}`))
      decoysFetched.push(...site.decoys.filter((page) => files.includes(page.file)).map((page) => `${site.name}: ${page.file}`))
    }
  } finally {
    await crawler.close()
    await server.stop()
  }
  const sitemapRequests = server.server.requests.filter((r) => r.path.endsWith('.xml')).length
  return { crawledFiles, missed, decoysFetched, sitemapRequests, requests: server.server.requests.length }
}

const sites = loadCorpus()
const pages = sites.reduce((n, s) => n + s.pages.length, 0)
const started = performance.now()
const crawl = await crawlCorpus(sites)
const baseline = withTotals(scoreCorpus(sites, { homeOnly: true }))
const ceiling = withTotals(scoreCorpus(sites))
const current = withTotals(scoreCorpus(sites, { crawledFiles: crawl.crawledFiles }))
console.log(`Discovery over ${sites.length} sites, ${pages} pages (${((performance.now() - started) / 1000).toFixed(1)} s)\n`)
console.log(`Crawl: ${pages - crawl.missed.length} of ${pages} fixture pages fetched; ${crawl.requests} requests, ${crawl.sitemapRequests} of them sitemaps`)
printList('pages not found', crawl.missed)
printList('decoy pages fetched', crawl.decoysFetched)
console.log('\nbase = homepage only (the product before it crawled contact/legal pages); all = every fixture page (perfect discovery); crawled = the pages the crawler found and fetched\n')

printTable(
  ['field', 'expected', 'base recall %', 'base prec %', 'all recall %', 'all prec %', 'found', 'TP', 'recall %', 'precision %', 'traps taken'],
  current.map((s, i) => {
    const b = baseline[i] as FieldScore
    const a = ceiling[i] as FieldScore
    return [s.field, s.expected, pct(recall(b)), pct(precision(b)), pct(recall(a)), pct(precision(a)), s.found, s.truePositives, pct(recall(s)), pct(precision(s)), s.trapsTaken.length]
  }),
)

console.log('\nMisses and false positives (current):')
for (const score of current) {
  if (score.field.includes('(all)') || score.field === 'siren/siret') continue
  if (score.misses.length + score.falsePositives.length === 0) continue
  console.log(`${score.field}:`)
  printList('missed', score.misses)
  printList('false positives', score.falsePositives)
  printList('traps taken', score.trapsTaken)
}

// Per country group (issue 28 item 12: French, Belgian, Swiss and Québec sites), on the pages the crawler fetched.
const GROUPS = ['FR', 'BE', 'CH', 'CA']
const groupOf = (site: CorpusSite) => (GROUPS.includes(site.expected.country) ? site.expected.country : 'other')
console.log('\nPer country group (crawled pages; the site’s own country, whatever country the crawl was given):\n')
// The figures of the code before issue 28 item 12 on the same corpus (bench/discovery-previous.json), side by side.
type Figures = Record<'email' | 'phone' | 'siren/siret', { recall: number; precision: number }>
const previous = JSON.parse(fs.readFileSync(new URL('./discovery-previous.json', import.meta.url), 'utf8')) as { sites: number; total: Figures; groups: Record<string, Figures> }
const was = (figures: Figures | undefined, field: keyof Figures, kind: 'recall' | 'precision') => (figures ? pct(figures[field][kind]) : '–')
printTable(
  ['group', 'sites', 'emails', 'email recall % (prev)', 'email prec % (prev)', 'phones', 'phone recall % (prev)', 'phone prec % (prev)', 'SIREN/SIRET', 'SIREN/SIRET recall % (prev)'],
  [...GROUPS, 'other', 'all'].map((group) => {
    const picked = group === 'all' ? sites : sites.filter((site) => groupOf(site) === group)
    const scores = withTotals(scoreCorpus(picked, { crawledFiles: crawl.crawledFiles }))
    const f = (name: string) => scores.find((s) => s.field === name) as FieldScore
    const prev = group === 'all' ? previous.total : previous.groups[group]
    const both = (name: keyof Figures, kind: 'recall' | 'precision') => `${pct((kind === 'recall' ? recall : precision)(f(name)))} (${was(prev, name, kind)})`
    return [group, picked.length, f('email').expected, both('email', 'recall'), both('email', 'precision'), f('phone').expected, both('phone', 'recall'), both('phone', 'precision'), f('siren/siret').expected, both('siren/siret', 'recall')]
  }),
)
if (previous.sites !== sites.length) console.log(`  (prev) was measured over ${previous.sites} sites, the corpus now has ${sites.length}: re-measure it`)

const field = (name: string) => current.find((s) => s.field === name) as FieldScore
const goals: Array<[string, boolean]> = [
  [`email recall ≥ 95 % (${pct(recall(field('email')))} %)`, recall(field('email')) >= 0.95],
  [`email precision ≥ 97 % (${pct(precision(field('email')))} %)`, precision(field('email')) >= 0.97],
  [`phone precision ≥ 97 % (${pct(precision(field('phone')))} %)`, precision(field('phone')) >= 0.97],
  [`technologies recall ≥ 80 % (${pct(recall(field('technologies')))} %)`, recall(field('technologies')) >= 0.8],
  [`SIREN/SIRET recall ≥ 95 % (${pct(recall(field('siren/siret')))} %)`, recall(field('siren/siret')) >= 0.95],
]
console.log('\nGoals:')
for (const [label, met] of goals) console.log(`  ${met ? 'met    ' : 'NOT met'}  ${label}`)

/** CPU milliseconds per page of `run` over `pageCount` pages: one warm-up round (fingerprints loaded), then the mean. */
function cpuMsPerPage(run: () => void, pageCount: number, rounds = 5): number {
  run()
  const start = process.cpuUsage()
  for (let i = 0; i < rounds; i++) run()
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000 / rounds / pageCount
}

/** Fingerprinting alone: every page of the corpus, parsed beforehand, fingerprinted on its own. */
function fingerprintEveryPage(corpus: CorpusSite[]): () => void {
  const inputs = corpus.flatMap((site) =>
    site.pages.map((page) => {
      const parsed = parsePage(page.html, page.url)
      const headers = page.kind === 'home' ? (site.expected.homeHeaders ?? {}) : {}
      return { url: page.url, html: page.html, text: parsed.text, scriptSrc: parsed.scriptSrc, meta: parsed.meta, headers }
    }),
  )
  return () => {
    for (const input of inputs) detectTechnologies(input)
  }
}

console.log('\nCPU time per page (mean of 5 rounds after a warm-up):')
console.log(`  technology fingerprinting alone: ${cpuMsPerPage(fingerprintEveryPage(sites), pages).toFixed(3)} ms`)
console.log(`  whole extraction (parse + every extractor, as scored above): ${cpuMsPerPage(() => scoreCorpus(sites), pages).toFixed(3)} ms`)
