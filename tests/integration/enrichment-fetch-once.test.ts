// Issue 19, item 13: a page is fetched once per lead, whatever way the site writes its address, and a page that
// timed out is asked once more before the crawl gives up on it.
import { afterEach, describe, expect, it } from 'vitest'
import { createWebsiteCrawler } from '#app/.server/enrichment/index.ts'
import { fixtureServers } from '#tests/support/fixture-server.ts'

const servers = fixtureServers()
afterEach(() => servers.stopAll())

const html = (body: string) => ({ status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><body>${body}</body></html>` })
const loopback = async () => [{ address: '127.0.0.1', family: 4 as const }]

/** Requests per page (host without "www." + path), robots.txt left out. */
function perPage(requests: Array<{ path: string; headers: Record<string, unknown> }>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { path, headers } of requests) {
    if (path === '/robots.txt') continue
    const key = `${String(headers.host).replace(/^www\./, '').replace(/:\d+$/, '')}${path}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe('one fetch per page per lead', () => {
  it('reads the homepage once however its links write it (other host form, index file, fragment, trailing slash)', async () => {
    let port = 0
    const site = await servers.serve((request) => {
      const origin = `http://boulangerie.test:${port}`
      switch (request.path) {
        case '/robots.txt':
          return { status: 404, body: '' }
        case '/':
          return html(`<nav><a href="${origin}/#contact">Contact</a> <a href="/index.html#contact">Nous contacter</a> <a href="/contact/">Contactez-nous</a>
            <a href="/contact">Contact</a> <a href="http://www.boulangerie.test:${port}/mentions-legales/#top">Mentions légales</a>
            <a href="/legal">Legal notice</a></nav><p>Tél : 04 78 12 34 56</p>`)
        case '/contact/':
          return html('<p>contact@boulangerie.test</p>')
        case '/mentions-legales/':
          return html('<p>SIRET : 732 829 320 00074</p>')
        case '/legal':
          // An old address that now leads to the homepage.
          return { status: 301, headers: { Location: '/' } }
        default:
          return { status: 404, body: '' }
      }
    })
    port = Number(new URL(site.url).port)
    const crawler = createWebsiteCrawler({ allowHosts: [`boulangerie.test:${port}`, `www.boulangerie.test:${port}`], lookup: loopback })
    try {
      const findings = await crawler.crawl(`http://www.boulangerie.test:${port}`, { countryCode: 'FR' })
      expect(findings).toMatchObject({ status: 'ok', emails: ['contact@boulangerie.test'], siret: '73282932000074' })
      expect(perPage(site.requests)).toEqual({ 'boulangerie.test/': 1, 'boulangerie.test/contact/': 1, 'boulangerie.test/mentions-legales/': 1, 'boulangerie.test/legal': 1 })
      // The old address leads to the homepage: not asked for it a second time.
      expect(findings.pages).toHaveLength(3)
      expect(findings.pageErrors).toEqual([{ url: `http://www.boulangerie.test:${port}/legal`, error: 'same_page' }])
    } finally {
      await crawler.close()
    }
  })

  it('asks a page that timed out once more after a pause, then reads it', async () => {
    const attempts: Record<string, number> = {}
    const site = await servers.serve((request) => {
      if (request.path === '/robots.txt') return { status: 404, body: '' }
      attempts[request.path] = (attempts[request.path] ?? 0) + 1
      const slow = attempts[request.path] === 1 ? 1_500 : 0
      if (request.path === '/') return { ...html('<a href="/mentions-legales">Mentions légales</a><p>Tél : 04 78 12 34 56</p>'), delayMs: slow }
      if (request.path === '/mentions-legales') return { ...html('<p>SIRET : 732 829 320 00074</p>'), delayMs: slow }
      return { status: 404, body: '' }
    })
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(site.url).host], timeoutMs: 300, retryDelayMs: 50 })
    try {
      const findings = await crawler.crawl(`${site.url}/`, { countryCode: 'FR' })
      expect(findings).toMatchObject({ status: 'ok', phones: ['+33 4 78 12 34 56'], siret: '73282932000074', pageErrors: [] })
      expect([attempts['/'], attempts['/mentions-legales']]).toEqual([2, 2])
    } finally {
      await crawler.close()
    }
  })

  it('gives up after the second timeout', async () => {
    const site = await servers.serve((request) => (request.path === '/robots.txt' ? { status: 404, body: '' } : { ...html('<p>late</p>'), delayMs: 1_500 }))
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(site.url).host], timeoutMs: 200, retryDelayMs: 50 })
    try {
      expect(await crawler.crawl(`${site.url}/`)).toMatchObject({ status: 'failed', error: 'timeout' })
      expect(site.requests.filter((r) => r.path === '/')).toHaveLength(2)
    } finally {
      await crawler.close()
    }
  })
})
