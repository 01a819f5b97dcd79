/**
 * The website crawler: one visit per lead feeds email, social, technologies, phone and SIRET (ARCHITECTURE §5).
 * Homepage first, then up to `maxPages` same-site contact / legal / about pages (named by the homepage's links, else the
 * sitemap, else the common address for the homepage's language; then the links of the pages read), all through the SSRF-guarded,
 * polite, bounded HTTP client, and only where robots.txt allows.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { extractFindings as extractPageFindings } from './findings.ts'
import { FetchError, type GetOptions, GuardedHttp, type HttpResponse, headerValue, hostLimitKey } from './http.ts'
import { HtmlStream } from './html-stream.ts'
import { countCrawlError } from '#app/.server/observability/metrics.ts'
import { type ParsedPage, parsePage } from './html.ts'
import { homeAddresses, pageKey } from './page-key.ts'
import { countryFromHostname, toCountryCode } from './phones.ts'
import { commonPathCandidates, missingKinds, type PageCandidate, rankCandidates, scoreLink } from './page-discovery.ts'
import { RobotsCache, type RobotsRules } from './robots.ts'
import { pageSitemapOf, parseSitemap } from './sitemap.ts'
import type { SocialNetworkName } from './social.ts'
import { HostAllowList, type LookupFn, allowListFromEnv, normalizeHostname, systemLookup } from './ssrf.ts'
import { type DetectedTechnology, groupByCategory, loadTechnologies } from './technologies.ts'
import { deploymentLimits } from '#app/.server/limits/global.ts'
import type { ConcurrencyLimiter } from '#app/.server/limits/leases.ts'

export interface WebsiteFindings {
  /** not_found: no website / 404 / robots.txt disallows the homepage; failed: network, timeout, refused, blocked. */
  status: 'ok' | 'not_found' | 'failed'
  finalUrl: string | null
  /** Deduplicated, lower case, junk dropped; in the order found (homepage first). */
  emails: string[]
  /** Each email → the page it was first found on (provenance in the downloaded file). */
  emailPages: Record<string, string>
  socialMedia: Partial<Record<SocialNetworkName, string>>
  /** Category name → technology name, or a list when the category has several (SPEC §3). */
  technologies: Record<string, string | string[]>
  /** Found on the site, international format ("+33 2 98 44 12 34"), tel: links first. */
  phones: string[]
  /** Each phone → the page it was first found on. */
  phonePages: Record<string, string>
  /** From the legal notice, Luhn-checked. */
  siret: string | null
  /** SIREN from the SIRET, or from a SIREN/RCS mention when no SIRET is printed. */
  siren: string | null
  /** The page the SIRET (else the SIREN) was printed on. */
  companyIdsPage: string | null
  /** Every detected technology with version and confidence (technologies above is the grouped view). */
  technologyDetails: DetectedTechnology[]
  /** Pages fetched successfully, homepage first. */
  pages: string[]
  /** Contact/legal/about pages that could not be used (the crawl still succeeds without them). */
  pageErrors: Array<{ url: string; error: string }>
  /**
   * Machine-readable reason when status is not ok: no_website, robots_disallowed, http_<status>, not_html,
   * blocked_address, blocked_port, blocked_scheme, invalid_url, timeout, connection_refused, dns_error,
   * network_error, too_many_redirects, invalid_redirect, robots_unavailable, extraction_error.
   */
  error?: string
}

export interface WebsiteCrawlerOptions {
  /** "host" or "host:port" allowed even if private/loopback (demo websites, test fixtures). Default: ENRICH_ALLOW_HOSTS. */
  allowHosts?: string[]
  /** Per request, default 8000. */
  timeoutMs?: number
  /** Per response kept in memory, default 1.5 MB (an HTML page: its source kept, in characters); reading stops beyond. */
  maxBytes?: number
  /** An HTML page is parsed as it arrives and read up to this many bytes, default 8 MB (memory: see maxBytes). */
  scanBytes?: number
  /** Pages after the homepage, default 3. */
  maxPages?: number
  /** Pause before a page that timed out is asked once more, default 2000 ms; negative: no second try. */
  retryDelayMs?: number
  /**
   * Max in-flight requests per site ("hostname:port", www. left out) across all crawls of every process, default 2.
   */
  perDomainConcurrency?: number
  /** Per-host exceptions to perDomainConcurrency, e.g. our own demo websites server: { '127.0.0.1:4321': 32 }. */
  hostConcurrency?: Record<string, number>
  /**
   * Where the per-site limit is shared with the other processes; default: the deployment's (app/.server/limits/),
   * none without DATABASE_URL. null: this process only.
   */
  sharedLimits?: ConcurrencyLimiter | null
  userAgent?: string
  /** DNS override (tests). */
  lookup?: LookupFn
  /**
   * Load the technology fingerprints when the crawler is created (default true) rather than during the first crawl:
   * the load blocks the event loop for a moment, which is harmless before any request is in flight.
   */
  preloadTechnologies?: boolean
}

interface CrawlOptions {
  signal?: AbortSignal
  /**
   * ISO country of the lead ("FR"): default region for national phone numbers, unless the site's own signs (ccTLD,
   * language region, address, +32/+41/+1 numbers: site-country.ts) outweigh it.
   */
  countryCode?: string | null
}

export interface WebsiteCrawler {
  crawl(url: string, options?: CrawlOptions): Promise<WebsiteFindings>
  /** The site's homepage address when it answers with a page (one request, robots.txt obeyed), else null. */
  reachable(url: string, options?: Pick<CrawlOptions, 'signal'>): Promise<string | null>
  close(): Promise<void>
  /** Diagnostics: highest simultaneous requests seen per host, robots.txt fetches. */
  stats(): { peakPerHost: Record<string, number>; robotsFetches: number }
}

const DEFAULT_USER_AGENT = 'LeadAtlasBot/0.1 (+https://leadatlas.app/bot)'
const NO_BYTES = Buffer.alloc(0)
const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml|text\/plain)?$/

class RobotsDisallowed extends Error {
  override name = 'RobotsDisallowed'
}

/** robots.txt answered 5xx/429: RFC 9309 says assume complete disallow; we report it as a (retryable) failure. */
class RobotsUnavailable extends Error {
  override name = 'RobotsUnavailable'
}

/** A redirect to a page this crawl has read already. */
class AlreadyRead extends Error {
  override name = 'AlreadyRead'
}

type PageKind = 'home' | 'contact' | 'legal' | 'about'

type GetPageOptions = Pick<GetOptions, 'accept' | 'maxBytes' | 'stream' | 'scanBytes'> & { read?: ReadonlySet<string> }

interface FetchedPage {
  kind: PageKind
  url: string
  response: HttpResponse
  html: string
  parsed: ParsedPage
}

const MAX_SITEMAP_FETCHES = 2
const MAX_SITEMAP_BYTES = 1_000_000
const SKIP_EXTENSIONS = /\.(?:pdf|jpe?g|png|gif|webp|svg|zip|docx?|xlsx?|pptx?|mp4|mp3|avi|mov|ics|vcf|xml|json|css|js)$/i

function isHtml(response: Pick<HttpResponse, 'headers'>): boolean {
  const type = (headerValue(response.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return HTML_TYPES.test(type)
}

function emptyFindings(status: WebsiteFindings['status'], finalUrl: string | null, error?: string): WebsiteFindings {
  return { status, finalUrl, emails: [], emailPages: {}, socialMedia: {}, technologies: {}, phones: [], phonePages: {}, siret: null, siren: null, companyIdsPage: null, technologyDetails: [], pages: [], pageErrors: [], ...(error ? { error } : {}) }
}

/** "www.example.fr" → "http://www.example.fr/" (sources often store bare domains). */
function normalizeWebsiteUrl(raw: string): string | null {
  const trimmed = raw.trim()
  if (!trimmed) return null
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/\//, '')}`
}

function siteKey(url: URL): string {
  return `${normalizeHostname(url.hostname).replace(/^www\./, '')}|${url.port}`
}

/** What one crawl needs from its crawler: the guarded HTTP client, robots.txt rules, the page budget, the retry pause. */
interface CrawlContext {
  http: GuardedHttp
  robots: RobotsCache
  maxPages: number
  retryDelayMs: number
  /** The second try's own deadline (half the first): a moment's lateness is forgiven, a site that never answers costs little more. */
  retryTimeoutMs: number
  /** HTML source kept per page (characters), and bytes of a page read (html-stream.ts). */
  keepHtmlChars: number
  scanBytes: number
}

type Candidate = PageCandidate
type ScoredCandidate = PageCandidate & { score: number }

/** The code a failed fetch is recorded under. */
function fetchErrorCode(error: unknown): string {
  if (error instanceof RobotsDisallowed) return 'robots_disallowed'
  if (error instanceof RobotsUnavailable) return 'robots_unavailable'
  if (error instanceof AlreadyRead) return 'same_page'
  if (error instanceof FetchError) return error.code
  return 'network_error'
}

/** The reason to rethrow when a crawl stops: the caller's own abort wins over the crawler closing. */
function abortReason(signal: AbortSignal, outer: AbortSignal | undefined): unknown {
  return outer?.aborted ? outer.reason : signal.reason
}

/** A GET where every hop must be allowed by its origin's robots.txt. */
function guardedGet(ctx: CrawlContext, url: string, signal: AbortSignal, { read, ...options }: GetPageOptions = {}): Promise<HttpResponse> {
  return ctx.http.get(url, {
    ...options,
    signal,
    beforeHop: async (hop) => {
      if (read && hop.href !== url && read.has(pageKey(hop.href))) throw new AlreadyRead(hop.href)
      const rules = await ctx.robots.rulesFor(hop, signal)
      if (rules.kind === 'unavailable') throw new RobotsUnavailable(`robots.txt of ${hop.origin} answered ${rules.status}`)
      if (rules.kind === 'rules' && !rules.isAllowed(hop.href)) throw new RobotsDisallowed(hop.href)
    },
  })
}

async function fetchPage(ctx: CrawlContext, url: string, kind: PageKind, signal: AbortSignal, read?: ReadonlySet<string>): Promise<FetchedPage> {
  let page: HtmlStream | null = null
  // Only pages that are HTML get decoded and parsed (a PDF or an image is left alone), as their bytes arrive: up to
  // scanBytes are read, the start of the source only is kept (html-stream.ts).
  const stream = (answer: Pick<HttpResponse, 'url' | 'headers'>) => {
    const html = isHtml(answer) ? new HtmlStream(answer.url, headerValue(answer.headers, 'content-type'), ctx.keepHtmlChars) : null
    page = html
    return html && ((chunk: Buffer) => html.write(chunk))
  }
  const response = await guardedGet(ctx, url, signal, { read, stream, scanBytes: ctx.scanBytes })
  const { html, parsed } = (page as HtmlStream | null)?.end() ?? { html: '', parsed: parsePage('', response.url) }
  return { kind, url: response.url, response: { ...response, body: NO_BYTES }, html, parsed }
}

/**
 * A page that timed out is asked once more after a pause before it counts as failed: on a loaded machine (ours or
 * the site's) the first deadline is often missed for a moment only, and a second try costs the lead nothing. The
 * second try has half the time: a site that never answers holds its lead 8 + 2 + 4 s, not 8 + 2 + 8.
 */
async function fetchWithRetry(ctx: CrawlContext, url: string, kind: PageKind, signal: AbortSignal, read?: ReadonlySet<string>): Promise<FetchedPage> {
  try {
    return await fetchPage(ctx, url, kind, signal, read)
  } catch (error) {
    if (signal.aborted || !(error instanceof FetchError && error.code === 'timeout') || ctx.retryDelayMs < 0) throw error
    await sleep(ctx.retryDelayMs, undefined, { signal })
    const retryDeadline = AbortSignal.timeout(ctx.retryTimeoutMs)
    try {
      return await fetchPage(ctx, url, kind, AbortSignal.any([signal, retryDeadline]), read)
    } catch (retryError) {
      if (!signal.aborted && retryDeadline.aborted) throw new FetchError('timeout', `no complete answer from ${url} on the second try within ${ctx.retryTimeoutMs} ms`)
      throw retryError
    }
  }
}

/** The https address failed this way (no TLS, a certificate for another name, refused): the http one may answer. */
const TRY_NEXT_ADDRESS = new Set(['network_error', 'connection_refused'])

/** The homepage at the first of its addresses that answers (page-key.ts homeAddresses: https first). */
async function firstHome(ctx: CrawlContext, start: string, signal: AbortSignal): Promise<FetchedPage> {
  const addresses = homeAddresses(start)
  for (let i = 0; ; i++) {
    const last = i === addresses.length - 1
    try {
      const page = await fetchWithRetry(ctx, addresses[i] as string, 'home', signal)
      if (last || page.response.status < 400) return page
    } catch (error) {
      if (last || signal.aborted || !(error instanceof FetchError && TRY_NEXT_ADDRESS.has(error.code))) throw error
    }
  }
}

/** The homepage, or the findings that say why there is nothing to read. */
async function fetchHome(ctx: CrawlContext, start: string, signal: AbortSignal, outer: AbortSignal | undefined): Promise<FetchedPage | WebsiteFindings> {
  let home: FetchedPage
  try {
    home = await firstHome(ctx, start, signal)
  } catch (error) {
    if (signal.aborted) throw abortReason(signal, outer)
    return emptyFindings(error instanceof RobotsDisallowed ? 'not_found' : 'failed', null, countCrawlError(fetchErrorCode(error)))
  }
  const { status } = home.response
  if (status === 404 || status === 410) return emptyFindings('not_found', home.url, `http_${status}`)
  if (status < 200 || status >= 300) return emptyFindings('failed', home.url, `http_${status}`)
  if (!isHtml(home.response)) return emptyFindings('not_found', home.url, 'not_html')
  return home
}

/** Same-site addresses worth a visit (page-discovery.ts), scored; `text` is the link's, empty for a sitemap's. */
function scoredPages(targets: Array<{ url: string | null; text: string }>, homeUrl: URL, seen: Set<string>): ScoredCandidate[] {
  const out: ScoredCandidate[] = []
  for (const { url, text } of targets) {
    if (!url || !/^https?:/i.test(url) || !URL.canParse(url)) continue
    const target = new URL(url)
    if (siteKey(target) !== siteKey(homeUrl) || SKIP_EXTENSIONS.test(target.pathname)) continue
    const key = pageKey(target.href)
    if (seen.has(key)) continue
    const scored = scoreLink(target, text)
    if (!scored) continue
    seen.add(key)
    out.push({ url: target.href, ...scored })
  }
  return out
}

/** What the first round of a crawl reads after the homepage, and what it knows already. */
interface CandidatePlan {
  candidates: Candidate[]
  /** Addresses tried because sites of the homepage's language keep the page there (nothing named them): a 404 is no error. */
  guessed: Set<string>
  /** Page keys already named (or tried): a later round does not take them again. */
  seen: Set<string>
}

/**
 * The contact / legal / about pages to read, best first: named by the homepage's links, and when those miss a
 * contact or a legal page, by the site's sitemap (for the missing kinds only), and when that misses one still, at
 * the address sites of the homepage's language use for it ("/mentions-legales", "/impressum").
 */
async function candidatePages(ctx: CrawlContext, home: FetchedPage, start: string, signal: AbortSignal): Promise<CandidatePlan> {
  const homeUrl = new URL(home.url)
  // Every address the homepage answered at (redirects included): a link back to it is not another page.
  const seen = new Set([start, ...home.response.hops, home.url].map(pageKey))
  const fromLinks = scoredPages(home.parsed.links, homeUrl, seen)
  const missing = ctx.maxPages > 0 ? missingKinds(fromLinks) : []
  if (missing.length === 0) return { candidates: rankCandidates(fromLinks), guessed: new Set(), seen }
  const fromSitemap = scoredPages((await sitemapPages(ctx, homeUrl, signal)).map((url) => ({ url, text: '' })), homeUrl, seen)
  const found = [...fromLinks, ...fromSitemap.filter((candidate) => missing.includes(candidate.kind))]
  const guesses = commonPathCandidates(homeUrl, home.parsed.lang, missingKinds(found)).filter((guess) => !seen.has(pageKey(guess.url)))
  for (const guess of guesses) seen.add(pageKey(guess.url))
  return { candidates: rankCandidates([...found, ...guesses.map((guess) => ({ ...guess, score: 0 }))]), guessed: new Set(guesses.map((g) => g.url)), seen }
}

/**
 * The page addresses of the site's sitemap: the first same-site Sitemap: line of robots.txt, else /sitemap.xml;
 * an index leads to its sitemap of pages (one level). At most two fetches, bounded in bytes and addresses, through
 * robots.txt and the per-host limits like any page; any failure just means no sitemap.
 */
async function sitemapPages(ctx: CrawlContext, homeUrl: URL, signal: AbortSignal): Promise<string[]> {
  const sameSite = (urls: string[]) => urls.filter((u) => URL.canParse(u) && siteKey(new URL(u)) === siteKey(homeUrl))
  const declared = await ctx.robots.rulesFor(homeUrl, signal).then((rules) => sameSite(rules.sitemaps), () => [])
  let url: string | null = declared[0] ?? new URL('/sitemap.xml', homeUrl).href
  for (let fetches = 0; url && fetches < MAX_SITEMAP_FETCHES; fetches++) {
    let sitemap: ReturnType<typeof parseSitemap>
    try {
      const response = await guardedGet(ctx, url, signal, { accept: 'application/xml,text/xml;q=0.9,*/*;q=0.5', maxBytes: MAX_SITEMAP_BYTES })
      if (response.status < 200 || response.status >= 300) return []
      sitemap = parseSitemap(response.body.toString('utf8'))
    } catch {
      return []
    }
    if (sitemap.kind === 'urlset') return sitemap.urls
    url = pageSitemapOf(sameSite(sitemap.urls))
  }
  return []
}

/** The first candidates robots.txt allows, up to the page budget (or what a later round has left of it). */
async function allowedCandidates(ctx: CrawlContext, candidates: Candidate[], signal: AbortSignal, outer: AbortSignal | undefined, budget = ctx.maxPages): Promise<Candidate[]> {
  const chosen: Candidate[] = []
  for (const candidate of candidates) {
    if (chosen.length >= budget) break
    try {
      if (await ctx.robots.isAllowed(new URL(candidate.url), signal)) chosen.push(candidate)
    } catch {
      if (signal.aborted) throw abortReason(signal, outer)
    }
  }
  return chosen
}

/** Keeps the fetched pages that are same-site HTML, each once; records why the others were left out. */
function sortFetched(chosen: Candidate[], settled: PromiseSettledResult<FetchedPage>[], homeUrl: URL, read = new Set([pageKey(homeUrl.href)])) {
  const pages: FetchedPage[] = []
  // A page redirected to the homepage or to another chosen page is read once.
  const pageErrors: Array<{ url: string; error: string }> = []
  settled.forEach((result, i) => {
    const url = (chosen[i] as Candidate).url
    if (result.status !== 'fulfilled') {
      pageErrors.push({ url, error: countCrawlError(fetchErrorCode(result.reason)) })
      return
    }
    const page = result.value
    const { status } = page.response
    if (status < 200 || status >= 300) pageErrors.push({ url, error: `http_${status}` })
    else if (!isHtml(page.response)) pageErrors.push({ url, error: 'not_html' })
    else if (siteKey(new URL(page.url)) !== siteKey(homeUrl)) pageErrors.push({ url, error: 'other_site' })
    else if (read.has(pageKey(page.url))) pageErrors.push({ url, error: 'same_page' })
    else {
      read.add(pageKey(page.url))
      pages.push(page)
    }
  })
  return { pages, pageErrors }
}

/**
 * A second, last round for a contact or legal page still missing: the links of the pages read (a legal notice linked
 * only from the contact page's footer), within what the first round left of the page budget.
 */
async function linkedFromPages(ctx: CrawlContext, pages: FetchedPage[], homeUrl: URL, seen: Set<string>, read: Set<string>, signal: AbortSignal, outer: AbortSignal | undefined): Promise<FetchedPage[]> {
  const budget = ctx.maxPages - pages.length
  const missing = missingKinds(pages.filter((page): page is FetchedPage & { kind: Candidate['kind'] } => page.kind !== 'home'))
  if (budget <= 0 || missing.length === 0 || pages.length === 0) return []
  const more = rankCandidates(pages.flatMap((page) => scoredPages(page.parsed.links, homeUrl, seen)).filter((candidate) => missing.includes(candidate.kind)))
  const chosen = await allowedCandidates(ctx, more, signal, outer, budget)
  if (chosen.length === 0) return []
  const readNow = new Set([...read, ...pages.map((page) => pageKey(page.url))])
  const settled = await Promise.allSettled(chosen.map((candidate) => fetchWithRetry(ctx, candidate.url, candidate.kind, signal, readNow)))
  if (signal.aborted) throw abortReason(signal, outer)
  return sortFetched(chosen, settled, homeUrl, new Set([pageKey(homeUrl.href), ...readNow])).pages
}

async function crawlSite(ctx: CrawlContext, start: string, crawlOptions: CrawlOptions, signal: AbortSignal): Promise<WebsiteFindings> {
  const outer = crawlOptions.signal
  const home = await fetchHome(ctx, start, signal, outer)
  if (!('parsed' in home)) return home
  const homeUrl = new URL(home.url)
  const plan = await candidatePages(ctx, home, start, signal)
  const chosen = await allowedCandidates(ctx, plan.candidates, signal, outer)
  // An old address redirecting to the homepage is not followed there: that page is read already.
  const read = new Set([home.url, ...home.response.hops].map(pageKey))
  const settled = await Promise.allSettled(chosen.map((candidate) => fetchWithRetry(ctx, candidate.url, candidate.kind, signal, read)))
  if (signal.aborted) throw abortReason(signal, outer)
  const sorted = sortFetched(chosen, settled, homeUrl)
  const pages = [...sorted.pages, ...(await linkedFromPages(ctx, sorted.pages, homeUrl, plan.seen, read, signal, outer))]
  // A guessed address that is not there is no error of the site's.
  const pageErrors = sorted.pageErrors.filter((e) => !(plan.guessed.has(e.url) && ['http_404', 'http_410', 'same_page'].includes(e.error)))

  let robotsRules: RobotsRules | null
  try {
    robotsRules = await ctx.robots.rulesFor(homeUrl, signal)
  } catch {
    robotsRules = null
  }
  const country = toCountryCode(crawlOptions.countryCode) ?? countryFromHostname(homeUrl.hostname) ?? null
  try {
    return { ...extractFindings([home, ...pages], { country, robotsText: robotsRules?.text ?? '' }), pageErrors }
  } catch {
    // Extraction is pure and bounded; should it ever throw on a pathological page, the lead still gets an answer.
    return emptyFindings('failed', home.url, 'extraction_error')
  }
}

export function createWebsiteCrawler(options: WebsiteCrawlerOptions = {}): WebsiteCrawler {
  const perDomain = Math.max(1, options.perDomainConcurrency ?? 2)
  // Keyed like the limit itself: "host:port" as its politeness key, a bare host without its www.
  const overrides = new Map(
    Object.entries(options.hostConcurrency ?? {}).map(([host, n]) => [/:\d+$/.test(host) ? hostLimitKey(new URL(`http://${host}`)) : host.toLowerCase().replace(/^www\./, ''), n]),
  )
  const shared = options.sharedLimits
  const sharedHosts = shared === undefined ? () => deploymentLimits()?.concurrency ?? null : () => shared
  if (options.preloadTechnologies !== false) loadTechnologies()
  const maxBytes = options.maxBytes ?? 1_500_000

  const http = new GuardedHttp({
    allowList: new HostAllowList(options.allowHosts ?? allowListFromEnv()),
    lookup: cachedLookup(options.lookup ?? systemLookup),
    timeoutMs: options.timeoutMs ?? 8_000,
    maxBytes,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    perHostLimit: (host) => overrides.get(host) ?? overrides.get(host.replace(/:\d+$/, '')) ?? perDomain,
    sharedHosts,
  })
  const ctx: CrawlContext = {
    http,
    robots: new RobotsCache(http),
    maxPages: Math.max(0, options.maxPages ?? 3),
    retryDelayMs: options.retryDelayMs ?? 2_000,
    retryTimeoutMs: Math.max(500, Math.round((options.timeoutMs ?? 8_000) / 2)),
    // What the technology fingerprints read of a page's source: its first 300 000 characters (DOM rules) and its end.
    keepHtmlChars: Math.min(maxBytes, 300_000),
    scanBytes: Math.max(maxBytes, options.scanBytes ?? 8_000_000),
  }
  const lifetime = new AbortController()
  let closed = false

  return {
    async crawl(rawUrl, crawlOptions = {}) {
      if (closed) throw new Error('website crawler is closed')
      crawlOptions.signal?.throwIfAborted()
      const start = normalizeWebsiteUrl(rawUrl ?? '')
      if (!start) return emptyFindings('not_found', null, 'no_website')
      const signal = crawlOptions.signal ? AbortSignal.any([crawlOptions.signal, lifetime.signal]) : lifetime.signal
      return crawlSite(ctx, start, crawlOptions, signal)
    },
    async reachable(rawUrl, reachOptions = {}) {
      if (closed) throw new Error('website crawler is closed')
      const start = normalizeWebsiteUrl(rawUrl ?? '')
      if (!start) return null
      const signal = reachOptions.signal ? AbortSignal.any([reachOptions.signal, lifetime.signal]) : lifetime.signal
      const home = await fetchHome(ctx, start, signal, reachOptions.signal)
      return 'parsed' in home ? home.url : null
    },
    async close() {
      if (closed) return
      closed = true
      lifetime.abort(new DOMException('website crawler closed', 'AbortError'))
      await http.close()
    },
    stats: () => ({ peakPerHost: Object.fromEntries(http.hosts.peak), robotsFetches: ctx.robots.fetches }),
  }
}

/** The findings of the pages read (findings.ts, the one extraction the corpus bench measures too). */
function extractFindings(pages: FetchedPage[], context: { country: string | null; robotsText: string }): WebsiteFindings {
  const found = extractPageFindings(
    pages.map((page) => ({ kind: page.kind, url: page.url, html: page.html, parsed: page.parsed, headers: page.response.headers })),
    context,
  )
  return {
    ...found,
    status: 'ok',
    finalUrl: (pages[0] as FetchedPage).url,
    technologies: groupByCategory(found.technologyDetails),
    pages: pages.map((p) => p.url),
    pageErrors: [],
  }
}

/** Successful lookups kept 30 s (bounded): crawls of the same host do not each pay a DNS round trip. */
function cachedLookup(lookup: LookupFn): LookupFn {
  const cache = new Map<string, { expires: number; value: Promise<Array<{ address: string; family: 4 | 6 }>> }>()
  return (hostname) => {
    const now = Date.now()
    const hit = cache.get(hostname)
    if (hit && hit.expires > now) return hit.value
    const value = lookup(hostname)
    cache.set(hostname, { expires: now + 30_000, value })
    if (cache.size > 2_000) cache.delete(cache.keys().next().value as string)
    value.catch(() => cache.delete(hostname))
    return value
  }
}
