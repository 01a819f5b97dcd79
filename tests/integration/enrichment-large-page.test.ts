// Issue 19, item 12: a homepage over the 1.5 MB kept in memory (site builders inline megabytes of JSON and CSS) is
// still read to its end: the email and the only link to the legal notice come after byte 1.7 M.
import { afterEach, describe, expect, it } from 'vitest'
import { createWebsiteCrawler } from '#app/.server/enrichment/index.ts'
import { fixtureServers } from '#tests/support/fixture-server.ts'

const servers = fixtureServers()
afterEach(() => servers.stopAll())

/** A builder's homepage: its state as inline JSON and its styles first (~1.9 MB), the footer last. */
function bigHomepage(): string {
  const items = Array.from({ length: 13_500 }, (_, i) => `{"id":"comp-${i}","type":"Text","style":{"font":"normal normal 400 15px/1.4 'Open Sans'","color":"#2f2e2e"},"text":"Bloc ${i}"}`)
  const css = Array.from({ length: 4_000 }, (_, i) => `.comp-${i}{--pad:${i % 40}px;margin:0 auto;max-width:980px}`).join('\n')
  return `<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Domaine des Grands Chênes</title>
<script>window.__VIEWER_MODEL__ = {"components":[${items.join(',')}]};</script><style>${css}</style></head>
<body><main><h1>Domaine des Grands Chênes</h1><p>Vins de Bourgogne depuis 1921.</p></main>
<footer><p>Caveau : 21 route des Vignes, 21190 Meursault – <a href="mailto:caveau@grands-chenes.fr">caveau@grands-chenes.fr</a></p>
<p><a href="/mentions-legales">Mentions légales</a></p></footer></body></html>`
}

describe('homepages larger than the HTML kept in memory', () => {
  it('reads the email and the legal notice link printed after byte 1.7 M', async () => {
    const home = bigHomepage()
    const site = await servers.serve((request) => {
      if (request.path === '/') return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: home }
      if (request.path === '/mentions-legales') return { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<p>SIRET : 732 829 320 00074</p>' }
      return { status: 404, body: '' }
    })
    const bytes = Buffer.byteLength(home)
    expect(bytes).toBeGreaterThan(1_900_000)
    expect(bytes).toBeLessThan(2_200_000)
    expect(Buffer.byteLength(home.slice(0, home.indexOf('caveau@')))).toBeGreaterThan(1_700_000)
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(site.url).host] })
    try {
      const findings = await crawler.crawl(`${site.url}/`, { countryCode: 'FR' })
      expect(findings).toMatchObject({ status: 'ok', emails: ['caveau@grands-chenes.fr'], siret: '73282932000074' })
      expect(findings.pages).toEqual([`${site.url}/`, `${site.url}/mentions-legales`])
    } finally {
      await crawler.close()
    }
  })

  it('stops reading at scanBytes, and keeps what came before', async () => {
    const home = `<p>debut@grands-chenes.fr</p><script>${'x'.repeat(3_000_000)}</script><p>fin@grands-chenes.fr</p>`
    const site = await servers.serve((request) => (request.path === '/' ? { status: 200, headers: { 'Content-Type': 'text/html' }, body: home } : { status: 404, body: '' }))
    const crawler = createWebsiteCrawler({ allowHosts: [new URL(site.url).host], maxBytes: 100_000, scanBytes: 1_000_000 })
    try {
      expect(await crawler.crawl(`${site.url}/`)).toMatchObject({ status: 'ok', emails: ['debut@grands-chenes.fr'] })
    } finally {
      await crawler.close()
    }
  })
})
