import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebsiteCrawler, normalizePhone, type WebsiteFindings } from '#app/.server/enrichment/index.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { type DemoSiteTruth, type DemoWebsites, demoSiteTruth, startDemoWebsites } from '#server/demo/websites.ts'
import { type FixtureResponse, type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'
import { resolvedParams } from '#tests/support/lead-source.ts'

async function mapPool<T, R>(items: T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++
        results[index] = await task(items[index] as T)
      }
    }),
  )
  return results
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const lookupTo = (map: Record<string, string>, calls: string[] = []) => async (host: string) => {
  calls.push(host)
  const address = map[host]
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return [{ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }]
}

describe('website crawler against the demo websites', () => {
  let sites: DemoWebsites
  const requests: string[] = []
  const results: Array<{ business: Business; slug: string; truth: DemoSiteTruth; findings: WebsiteFindings }> = []
  let robotsFetches = 0
  let peakPerHost: Record<string, number> = {}

  beforeAll(async () => {
    sites = await startDemoWebsites({ onRequest: (request) => requests.push(request.path) })
    const source = createDemoSource({ websitesBaseUrl: sites.url })
    const businesses: Business[] = []
    for await (const business of source.search(resolvedParams({ country: 'France', region: 'Bretagne', department: 'Finistère', lang: 'fr' }), null, { limit: 220 })) {
      if (business.website) businesses.push(business)
    }
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(sites.url).host], timeoutMs: 10_000 })
    try {
      const findings = await mapPool(businesses, 12, (business) => crawler.crawl(business.website as string, { countryCode: business.countryCode }))
      businesses.forEach((business, i) => {
        const slug = new URL(business.website as string).pathname.split('/')[2] as string
        results.push({ business, slug, truth: demoSiteTruth(slug), findings: findings[i] as WebsiteFindings })
      })
      ;({ robotsFetches, peakPerHost } = crawler.stats())
    } finally {
      await crawler.close()
    }
  }, 180_000)

  afterAll(async () => {
    await sites?.stop()
  })

  it('crawls a varied sample (every email markup, stack, decoy and robots case)', () => {
    expect(results.length).toBeGreaterThanOrEqual(100)
    const markups = new Set(results.map((r) => r.truth.emailMarkup))
    expect([...markups].sort()).toEqual(['cloudflare', 'json-ld', 'mailto', 'mailto-encoded', 'none', 'obfuscated'])
    expect(new Set(results.map((r) => r.truth.stack)).size).toBe(6)
    expect(results.some((r) => r.truth.robotsDisallowPrivate)).toBe(true)
    expect(results.some((r) => r.truth.decoys.socialLinks.length > 0)).toBe(true)
    expect(results.some((r) => r.truth.decoys.emails.includes('logo@2x.png'))).toBe(true)
    expect(results.some((r) => r.truth.decoys.emails.some((e) => e.includes('sentry')))).toBe(true)
    expect(results.some((r) => r.truth.siret) && results.some((r) => !r.truth.siret)).toBe(true)
    expect(results.some((r) => r.truth.emails.length > 1)).toBe(true)
  })

  it('finds exactly the emails of each site, primary first, and none of the decoys', () => {
    for (const { slug, truth, findings } of results) {
      expect(findings.status, slug).toBe('ok')
      expect(findings.emails, `${slug} (${truth.emailMarkup})`).toEqual(truth.emails)
      // Provenance: each email was found on one of the pages the crawl read.
      for (const email of findings.emails) expect(findings.pages, `${slug}: ${email}`).toContain(findings.emailPages[email])
      for (const decoy of truth.decoys.emails) expect(findings.emails, slug).not.toContain(decoy)
      if (truth.privateEmail) expect(findings.emails, slug).not.toContain(truth.privateEmail)
    }
  })

  it('finds the social profiles (links or JSON-LD sameAs), never share/intent links', () => {
    for (const { slug, truth, findings } of results) {
      expect(findings.socialMedia, `${slug} (${truth.socialMarkup})`).toEqual(truth.socialMedia)
      for (const decoy of truth.decoys.socialLinks) expect(Object.values(findings.socialMedia), slug).not.toContain(decoy)
    }
  })

  it('detects the technologies with the Wappalyzer fingerprints, versions included', () => {
    for (const { slug, truth, findings } of results) {
      const detected = new Map(findings.technologyDetails.map((t) => [t.name, t]))
      const grouped = new Set(Object.values(findings.technologies).flat())
      for (const expected of truth.technologies) {
        expect(detected.has(expected.name), `${slug}: ${expected.name} in ${[...detected.keys()].join(', ')}`).toBe(true)
        if (expected.version) expect(detected.get(expected.name)?.version, `${slug}: ${expected.name} version`).toBe(expected.version)
        expect(grouped.has(expected.name), `${slug}: ${expected.name} grouped`).toBe(true)
      }
    }
    // The SPEC §3 shape: category → name or list of names.
    const wordpress = results.find((r) => r.truth.stack === 'wordpress')
    expect(wordpress?.findings.technologies.CMS).toBe('WordPress')
    for (const { findings } of results) {
      for (const value of Object.values(findings.technologies)) expect(typeof value === 'string' || (Array.isArray(value) && value.length > 1)).toBe(true)
    }
  })

  it('finds the phone (normalised) and the SIRET of the legal notice', () => {
    for (const { slug, truth, findings } of results) {
      if (truth.phone) {
        // The main number, then the owner's mobile some contact pages add.
        const expected = [truth.phone, truth.mobile].flatMap((phone) => (phone ? [normalizePhone(phone, 'FR')] : []))
        expect(expected, slug).not.toContain(null)
        expect(findings.phones, slug).toEqual(expected)
      } else {
        expect(findings.phones, slug).toEqual([])
      }
      expect(findings.siret, slug).toBe(truth.siret)
      if (truth.siret) expect(findings.siren, slug).toBe(truth.siret.slice(0, 9))
    }
  })

  it('visits homepage, contact and legal notice only, respects robots.txt and politeness', () => {
    for (const { slug, findings, business } of results) {
      expect(findings.pageErrors, slug).toEqual([])
      expect(findings.finalUrl, slug).toBe(business.website)
      expect(findings.pages.map((p) => new URL(p).pathname), slug).toEqual([`/sites/${slug}/`, `/sites/${slug}/contact`, `/sites/${slug}/mentions-legales`])
    }
    expect(requests.filter((path) => path.includes('/private'))).toEqual([])
    expect(requests.filter((path) => path === '/robots.txt')).toHaveLength(1)
    expect(robotsFetches).toBe(1)
    expect(Math.max(...Object.values(peakPerHost))).toBeLessThanOrEqual(2)
  })

  it('follows the slash redirect of a site URL and reports the final URL', async () => {
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(sites.url).host] })
    try {
      const { slug } = results[0] as (typeof results)[number]
      const findings = await crawler.crawl(`${sites.url}/sites/${slug}`, { countryCode: 'FR' })
      expect(findings.status).toBe('ok')
      expect(findings.finalUrl).toBe(`${sites.url}/sites/${slug}/`)
    } finally {
      await crawler.close()
    }
  })
})

describe('SSRF guard (end to end)', () => {
  let fixture: FixtureServer
  let port: number

  beforeAll(async () => {
    fixture = await startFixtureServer((request): FixtureResponse => {
      if (request.path === '/robots.txt') return { status: 404, body: 'none' }
      if (request.path === '/to-loopback') return { status: 302, headers: { Location: `http://127.0.0.1:${port}/secret` } }
      if (request.path === '/to-private-name') return { status: 301, headers: { Location: 'http://rebind.example.com/secret' } }
      if (request.path === '/to-metadata') return { status: 307, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } }
      if (request.path === '/to-file') return { status: 302, headers: { Location: 'file:///etc/passwd' } }
      if (request.path === '/loop') return { status: 302, headers: { Location: '/loop' } }
      return { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<p>secret@internal.fr</p>' }
    })
    port = Number(new URL(fixture.url).port)
  })

  afterAll(async () => {
    await fixture?.stop()
  })

  it('refuses private, loopback, link-local and metadata targets', async () => {
    const lookups: string[] = []
    const crawler = createWebsiteCrawler({ allowHosts: [], lookup: lookupTo({ 'intranet.example.com': '10.20.30.40', 'rebind.example.com': '127.0.0.1', 'v6.example.com': 'fd00::5' }, lookups) })
    try {
      const targets = [
        `http://127.0.0.1:${port}/`, 'http://127.0.0.1/', 'http://10.0.0.1/', 'http://172.16.0.1/', 'http://192.168.1.1/', 'http://100.64.0.1/',
        'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fc00::1]/', 'http://0.0.0.0/',
        'http://2130706433/', 'http://localhost/', 'http://metadata.google.internal/computeMetadata/v1/', 'http://intranet.example.com/',
        'https://v6.example.com/', 'http://rebind.example.com/',
      ]
      for (const target of targets) {
        const findings = await crawler.crawl(target)
        expect({ target, status: findings.status, error: findings.error }).toEqual({ target, status: 'failed', error: 'blocked_address' })
        expect(findings.emails).toEqual([])
      }
      // Names were resolved (and refused) at connect time; literals never reached DNS.
      expect(new Set(lookups)).toEqual(new Set(['intranet.example.com', 'v6.example.com', 'rebind.example.com']))
      expect(fixture.requests).toHaveLength(0)
    } finally {
      await crawler.close()
    }
  })

  it('refuses other schemes and ports', async () => {
    const crawler = createWebsiteCrawler({ allowHosts: [] })
    try {
      expect((await crawler.crawl('ftp://example.org/')).error).toBe('blocked_scheme')
      expect((await crawler.crawl('http://example.org:8080/')).error).toBe('blocked_port')
      expect((await crawler.crawl('http://user:pw@example.org/')).error).toBe('invalid_url')
      expect(await crawler.crawl('   ')).toMatchObject({ status: 'not_found', error: 'no_website' })
    } finally {
      await crawler.close()
    }
  })

  it('re-checks every redirect hop: an allowed host redirecting inside is refused', async () => {
    const lookups: string[] = []
    const crawler = createWebsiteCrawler({
      allowHosts: [`public.example.com:${port}`],
      lookup: lookupTo({ 'public.example.com': '127.0.0.1', 'rebind.example.com': '127.0.0.1' }, lookups),
    })
    try {
      for (const path of ['/to-loopback', '/to-private-name', '/to-metadata']) {
        const findings = await crawler.crawl(`http://public.example.com:${port}${path}`)
        expect({ path, status: findings.status, error: findings.error }).toEqual({ path, status: 'failed', error: 'blocked_address' })
      }
      expect((await crawler.crawl(`http://public.example.com:${port}/to-file`)).error).toBe('blocked_scheme')
      expect((await crawler.crawl(`http://public.example.com:${port}/loop`)).error).toBe('too_many_redirects')
      // The first hop went through (allow-listed), the second never did.
      expect(fixture.requests.map((r) => r.path)).not.toContain('/secret')
      expect(fixture.requests.map((r) => r.path)).toContain('/to-loopback')
      expect(fixture.requests.filter((r) => r.path === '/loop')).toHaveLength(6)
      // The request carried the original Host and our user agent.
      const hop = fixture.requests.find((r) => r.path === '/to-loopback')
      expect(hop?.headers.host).toBe(`public.example.com:${port}`)
      expect(hop?.headers['user-agent']).toBe('LeadAtlasBot/0.1 (+https://leadatlas.app/bot)')
    } finally {
      await crawler.close()
    }
  })

  it('lets allow-listed hosts through (by IP and by name)', async () => {
    const crawler = createWebsiteCrawler({ allowHosts: [`127.0.0.1:${port}`, `fixture.test:${port}`], lookup: lookupTo({ 'fixture.test': '127.0.0.1' }) })
    try {
      expect(await crawler.crawl(`http://127.0.0.1:${port}/page`)).toMatchObject({ status: 'ok', emails: ['secret@internal.fr'] })
      expect(await crawler.crawl(`http://fixture.test:${port}/page`)).toMatchObject({ status: 'ok', emails: ['secret@internal.fr'] })
    } finally {
      await crawler.close()
    }
  })

  it('reads ENRICH_ALLOW_HOSTS when no allow-list is given', async () => {
    const previous = process.env.ENRICH_ALLOW_HOSTS
    process.env.ENRICH_ALLOW_HOSTS = ` other.test , 127.0.0.1:${port}`
    const crawler = createWebsiteCrawler()
    try {
      expect(await crawler.crawl(`http://127.0.0.1:${port}/page`)).toMatchObject({ status: 'ok' })
    } finally {
      await crawler.close()
      if (previous === undefined) delete process.env.ENRICH_ALLOW_HOSTS
      else process.env.ENRICH_ALLOW_HOSTS = previous
    }
  })
})

describe('bounded crawling', () => {
  it('gives up on a server that never answers within timeoutMs', async () => {
    const fixture = await startFixtureServer((request) => (request.path === '/robots.txt' ? { status: 404 } : { status: 200, body: 'late', delayMs: 8_000 }))
    const stalledRobots = await startFixtureServer(() => ({ status: 200, body: 'late', delayMs: 8_000 }))
    // A timeout is asked once more after retryDelayMs (tests/integration/enrichment-fetch-once.test.ts): twice 400 ms.
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host, new URL(stalledRobots.url).host], timeoutMs: 400, retryDelayMs: 100 })
    try {
      let start = performance.now()
      expect(await crawler.crawl(`${fixture.url}/`)).toMatchObject({ status: 'failed', error: 'timeout' })
      expect(performance.now() - start).toBeLessThan(2_000)
      start = performance.now()
      expect(await crawler.crawl(`${stalledRobots.url}/`)).toMatchObject({ status: 'failed', error: 'timeout' })
      expect(performance.now() - start).toBeLessThan(2_000)
    } finally {
      await crawler.close()
      await fixture.stop()
      await stalledRobots.stop()
    }
  })

  it('reports a refused connection, a missing homepage, a non-HTML one and server errors', async () => {
    const probe = http.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const closedPort = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const fixture = await startFixtureServer((request): FixtureResponse => {
      if (request.path === '/robots.txt') return { status: 404 }
      if (request.path === '/gone') return { status: 410 }
      if (request.path === '/brochure.pdf') return { status: 200, headers: { 'Content-Type': 'application/pdf' }, body: '%PDF-1.7 contact@pdf.fr' }
      if (request.path === '/error') return { status: 500, body: 'boom' }
      return { status: 404, body: 'nope' }
    })
    const crawler = createWebsiteCrawler({ allowHosts: [`127.0.0.1:${closedPort}`, new URL(fixture.url).host] })
    try {
      expect(await crawler.crawl(`http://127.0.0.1:${closedPort}/`)).toMatchObject({ status: 'failed', error: 'connection_refused' })
      expect(await crawler.crawl(`${fixture.url}/`)).toMatchObject({ status: 'not_found', error: 'http_404' })
      expect(await crawler.crawl(`${fixture.url}/gone`)).toMatchObject({ status: 'not_found', error: 'http_410' })
      expect(await crawler.crawl(`${fixture.url}/brochure.pdf`)).toMatchObject({ status: 'not_found', error: 'not_html', emails: [] })
      expect(await crawler.crawl(`${fixture.url}/error`)).toMatchObject({ status: 'failed', error: 'http_500' })
    } finally {
      await crawler.close()
      await fixture.stop()
    }
  })

  it('retries once when the connection is reset, then reports it', async () => {
    let pageRequests = 0
    let resetEvery = false
    const server = http.createServer((req, res) => {
      // No robots.txt, no sitemap and no page at the common contact / legal addresses (all tried because this homepage
      // links no contact or legal page).
      if (['/robots.txt', '/sitemap.xml', '/contact', '/mentions-legales'].includes(req.url ?? '')) {
        res.writeHead(404).end()
        return
      }
      pageRequests++
      if (resetEvery || pageRequests === 1) {
        req.socket.destroy()
        return
      }
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>again@site.fr</p>')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
    const crawler = createWebsiteCrawler({ allowHosts: [host] })
    try {
      expect(await crawler.crawl(`http://${host}/`)).toMatchObject({ status: 'ok', emails: ['again@site.fr'] })
      expect(pageRequests).toBe(2)
      resetEvery = true
      expect(await crawler.crawl(`http://${host}/other`)).toMatchObject({ status: 'failed', error: 'network_error' })
      expect(pageRequests).toBe(4)
    } finally {
      await crawler.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('truncates huge pages at maxBytes and still returns findings', async () => {
    const huge = `<html><body><p>first@bigsite.fr</p>${'<p>filler text</p>'.repeat(300_000)}<p>last@bigsite.fr</p></body></html>`
    const fixture = await startFixtureServer((request) => (request.path === '/robots.txt' ? { status: 404 } : { status: 200, headers: { 'Content-Type': 'text/html' }, body: huge }))
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host], maxBytes: 200_000 })
    try {
      expect(huge.length).toBeGreaterThan(5_000_000)
      const start = performance.now()
      const findings = await crawler.crawl(`${fixture.url}/`)
      expect(findings.status).toBe('ok')
      expect(findings.emails).toEqual(['first@bigsite.fr'])
      expect(performance.now() - start).toBeLessThan(5_000)
    } finally {
      await crawler.close()
      await fixture.stop()
    }
  })

  it('caps decompressed bytes (a gzip bomb is cut, not inflated)', async () => {
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('<p>bomb@site.fr</p>'), Buffer.alloc(40_000_000, 0x20)]))
    const server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', 'Content-Length': bomb.length }).end(bomb)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
    const crawler = createWebsiteCrawler({ allowHosts: [host], maxBytes: 100_000 })
    try {
      expect(bomb.length).toBeLessThan(100_000)
      const findings = await crawler.crawl(`http://${host}/`)
      expect(findings).toMatchObject({ status: 'ok', emails: ['bomb@site.fr'] })
    } finally {
      await crawler.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('never has more than perDomainConcurrency requests in flight per host', async () => {
    let inFlight = 0
    let peak = 0
    const fixture = await startFixtureServer(async (request) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await sleep(30)
      inFlight--
      if (request.path === '/robots.txt') return { status: 404 }
      const html = `<html><body><a href="contact">Contact</a> <a href="mentions-legales">Mentions légales</a> <a href="a-propos">À propos</a>
        <a href="impressum">Impressum</a> <p>page ${request.path}</p></body></html>`
      return { status: 200, headers: { 'Content-Type': 'text/html' }, body: html }
    })
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host], perDomainConcurrency: 2 })
    try {
      const all = await Promise.all(Array.from({ length: 8 }, (_, i) => crawler.crawl(`${fixture.url}/site${i}/`)))
      for (const findings of all) expect(findings.pages).toHaveLength(4) // homepage + 3 (maxPages default)
      expect(fixture.requests.length).toBe(1 + 8 * 4)
      expect(peak).toBe(2)
      expect(crawler.stats().peakPerHost[new URL(fixture.url).host]).toBe(2)
    } finally {
      await crawler.close()
    }
    // A wider limit is honoured too, and per-host overrides apply.
    peak = 0
    const wide = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host], perDomainConcurrency: 1, hostConcurrency: { [new URL(fixture.url).host]: 3 }, maxPages: 1 })
    try {
      await Promise.all(Array.from({ length: 6 }, (_, i) => wide.crawl(`${fixture.url}/wide${i}/`)))
      expect(peak).toBe(3)
    } finally {
      await wide.close()
      await fixture.stop()
    }
  })

  it('is abortable, and close() stops crawls in flight', async () => {
    const fixture = await startFixtureServer((request) => (request.path === '/robots.txt' ? { status: 404 } : { status: 200, body: 'slow', delayMs: 5_000 }))
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host] })
    try {
      const controller = new AbortController()
      const pending = crawler.crawl(`${fixture.url}/`, { signal: controller.signal })
      setTimeout(() => controller.abort(new Error('user cancelled')), 100)
      await expect(pending).rejects.toThrow('user cancelled')
      const aborted = new AbortController()
      aborted.abort(new Error('already'))
      await expect(crawler.crawl(`${fixture.url}/`, { signal: aborted.signal })).rejects.toThrow('already')
      const inFlight = crawler.crawl(`${fixture.url}/other`)
      setTimeout(() => void crawler.close(), 100)
      await expect(inFlight).rejects.toThrow(/closed/)
    } finally {
      await crawler.close()
      await fixture.stop()
    }
  })
})

describe('robots.txt', () => {
  it('is fetched once per origin and obeyed for every page (LeadAtlasBot group)', async () => {
    const robots = ['User-agent: LeadAtlasBot', 'Disallow: /contact', 'Disallow: /hidden-site/', '', 'User-agent: *', 'Disallow: /', ''].join('\n')
    const fixture = await startFixtureServer((request) => {
      if (request.path === '/robots.txt') return { status: 200, body: robots }
      return {
        status: 200,
        headers: { 'Content-Type': 'text/html' },
        body: '<a href="/contact">Contact</a><a href="/mentions-legales">Mentions légales</a><a href="/a-propos">Qui sommes-nous</a><p>hello@open.fr</p>',
      }
    })
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(fixture.url).host] })
    try {
      const open = await crawler.crawl(`${fixture.url}/`)
      expect(open.status).toBe('ok')
      expect(open.pages.map((p) => new URL(p).pathname)).toEqual(['/', '/mentions-legales', '/a-propos'])
      expect(await crawler.crawl(`${fixture.url}/hidden-site/`)).toMatchObject({ status: 'not_found', error: 'robots_disallowed' })
      const paths = fixture.requests.map((r) => r.path)
      expect(paths).not.toContain('/contact')
      expect(paths).not.toContain('/hidden-site/')
      expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1)
    } finally {
      await crawler.close()
      await fixture.stop()
    }
  })

  it('disallow-all for every agent means not_found; robots.txt in error means failed', async () => {
    const closed = await startFixtureServer((request) => (request.path === '/robots.txt' ? { status: 200, body: 'User-agent: *\nDisallow: /\n' } : { status: 200, body: 'x' }))
    const broken = await startFixtureServer((request) => (request.path === '/robots.txt' ? { status: 503, body: 'down' } : { status: 200, body: 'x' }))
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(closed.url).host, new URL(broken.url).host] })
    try {
      expect(await crawler.crawl(`${closed.url}/`)).toMatchObject({ status: 'not_found', error: 'robots_disallowed' })
      expect(await crawler.crawl(`${broken.url}/`)).toMatchObject({ status: 'failed', error: 'robots_unavailable' })
      expect(closed.requests.map((r) => r.path)).toEqual(['/robots.txt'])
      expect(broken.requests.map((r) => r.path)).toEqual(['/robots.txt'])
    } finally {
      await crawler.close()
      await closed.stop()
      await broken.stop()
    }
  })
})
