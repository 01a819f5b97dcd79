import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebsiteCrawler, type WebsiteFindings } from '#app/.server/enrichment/index.ts'
import { type CorpusServer, startCorpusServer } from '#tests/support/corpus-server.ts'
import { type CorpusSite, crawlCountry, loadCorpus } from '#tests/support/site-corpus.ts'

describe('page discovery: the crawler over the hand-written corpus served on loopback', () => {
  const sites = loadCorpus()
  let server: CorpusServer
  const findings = new Map<string, WebsiteFindings>()
  const site = (name: string) => sites.find((s) => s.name === name) as CorpusSite
  const fetchedFiles = (name: string) => (findings.get(name) as WebsiteFindings).pages.map((url) => server.fileOf(site(name), url))
  const requestsOf = (name: string) => server.server.requests.filter((r) => r.headers.host?.startsWith(`${name}.`)).map((r) => r.path)

  beforeAll(async () => {
    server = await startCorpusServer(sites)
    const crawler = createWebsiteCrawler({ allowHosts: server.hosts, lookup: server.lookup })
    try {
      for (const corpusSite of sites) findings.set(corpusSite.name, await crawler.crawl(server.startUrl(corpusSite), { countryCode: crawlCountry(corpusSite) ?? undefined }))
    } finally {
      await crawler.close()
    }
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
  })

  it('fetches every contact / legal / about page of every site, and no decoy', () => {
    for (const corpusSite of sites) {
      const fetched = fetchedFiles(corpusSite.name)
      expect(fetched.toSorted(), corpusSite.name).toEqual(corpusSite.pages.map((page) => page.file).toSorted())
    }
  })

  it('follows the robots.txt Sitemap: line through a WordPress index to its page sitemap only', () => {
    expect(fetchedFiles('menuiserie-sitemap-only')).toEqual(['index.html', 'contact.html', 'mentions-legales.html'])
    const requests = requestsOf('menuiserie-sitemap-only')
    expect(requests.filter((path) => path.endsWith('.xml'))).toEqual(['/wp-sitemap.xml', '/wp-sitemap-posts-page-1.xml'])
    expect(requests).not.toContain('/sitemap.xml')
    expect(findings.get('menuiserie-sitemap-only')?.siret).toBe('51234567900017')
  })

  it('reads /sitemap.xml when robots.txt names none (a Yoast index), and no sitemap when the links suffice', () => {
    expect(requestsOf('fysiotherapie-nl-yoast').filter((path) => path.endsWith('.xml'))).toEqual(['/sitemap.xml', '/page-sitemap.xml'])
    expect(findings.get('fysiotherapie-nl-yoast')?.emails).toEqual(['info@fysiodelinde.nl'])
    expect(requestsOf('boucherie-contact-page').filter((path) => path.endsWith('.xml'))).toEqual([])
  })

  it('takes links named in Italian and German whatever their address', () => {
    expect(fetchedFiles('ristorante-page-id-it')).toEqual(['index.html', 'contatti.html', 'note-legali.html'])
    expect(fetchedFiles('schreinerei-de-index-php')).toEqual(['index.html', 'kontakt.html', 'impressum.html'])
    expect(requestsOf('opticien-lentilles-piege')).not.toContain('/lentilles-de-contact')
  })
})
