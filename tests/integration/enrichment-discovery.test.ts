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

  it('finds quote and legal pages no link names as such: a sitemap’s /demande-de-devis and /infos-legales', () => {
    expect(fetchedFiles('garage-sitemap-devis').toSorted()).toEqual(['demande-de-devis.html', 'index.html', 'infos-legales.html'])
    expect(findings.get('garage-sitemap-devis')).toMatchObject({ emails: ['devis@garage-martinez.fr'], siren: '793456120' })
    // "Soumission gratuite" (Québec) and a footer's "Crédits" and "Avis légal" are read from the homepage's links.
    expect(fetchedFiles('renovation-beaulieu-qc')).toContain('soumission.html')
    expect(fetchedFiles('ebeniste-bordeaux-credits')).toEqual(['index.html', 'credits.html'])
    expect(findings.get('ebeniste-bordeaux-credits')?.siret).toBe('81234567600025')
    expect(fetchedFiles('avocat-bruxelles-avis-legal')).toEqual(['index.html', 'avis-legal.html'])
  })

  it('tries the common legal address when nothing names the page, and a guess that is not there is no page error', () => {
    expect(requestsOf('traiteur-lyon-siege')).toContain('/mentions-legales')
    expect(fetchedFiles('traiteur-lyon-siege')).toEqual(['index.html', 'mentions-legales.html'])
    expect(findings.get('traiteur-lyon-siege')?.siret).toBe('53210487400021')
    // The Liège plumber has no /contact nor /mentions-legales: both tried once, neither reported.
    expect(requestsOf('plombier-liege-be').filter((path) => path === '/contact' || path === '/mentions-legales').toSorted()).toEqual(['/contact', '/mentions-legales'])
    expect(findings.get('plombier-liege-be')?.pageErrors).toEqual([])
  })

  it('follows a legal page linked only from a page read (the quote page’s footer), within the page budget', () => {
    expect(fetchedFiles('plombier-liege-be').toSorted()).toEqual(['devis.html', 'index.html', 'infos-legales.html'])
    expect(findings.get('plombier-liege-be')?.emails).toContain('thomas@plomberie-lejeune.be')
    // A site whose homepage names its pages gets no second round and no guessed address.
    expect(requestsOf('boucherie-contact-page')).not.toContain('/mentions-legales')
  })

  it('reads a Belgian site crawled for a French export in Belgium: +32, never +33', () => {
    expect(findings.get('plombier-liege-be')?.phones.map((p) => p.replace(/\D/g, ''))).toEqual(['3242274518', '32475621309'])
    expect(findings.get('fiduciaire-geneve-ch')?.phones.map((p) => p.replace(/\D/g, ''))).toEqual(['41223104567', '41794123321'])
  })
})
