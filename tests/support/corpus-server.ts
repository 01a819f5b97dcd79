/**
 * The hand-written corpus (tests/fixtures/sites) served on loopback, one host per site ("<site>.corpus.<the site's TLD>"), so
 * the real crawler discovers each site's pages itself: from the homepage's links, robots.txt and sitemaps. Links
 * written with the site's real address are rewritten to the served one; a robots.txt or *.xml file of a fixture is
 * served with "{{origin}}" replaced by it. Addresses map to fixture files by their last path segment ("/pages/
 * contact/" → contact.html) or, for addresses that do not name the file ("/?page_id=12"), by expected.json `paths`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { type CorpusSite, SITES_DIR } from './site-corpus.ts'
import { type FixtureServer, startFixtureServer } from './fixture-server.ts'

export interface CorpusServer {
  /** The address to crawl for a site. */
  startUrl(site: CorpusSite): string
  /** "host:port" of every site, for the crawler's allow-list. */
  hosts: string[]
  /** Resolves every corpus host to loopback (the crawler's DNS override). */
  lookup: (hostname: string) => Promise<Array<{ address: string; family: 4 }>>
  /** The fixture file a crawled address was served from, or null. */
  fileOf(site: CorpusSite, url: string): string | null
  server: FixtureServer
  stop(): Promise<void>
}

// The site's own top-level domain is kept ("cordonnier-belge.corpus.be"): the crawler reads the country of national
// numbers from it as on the real site. Every corpus host resolves to loopback (lookup below), never through DNS.
const hostOf = (site: CorpusSite) => `${site.name}.corpus.${new URL(site.expected.url).hostname.split('.').pop()}`

/** The fixture file for a path and query of a site, or null (404). */
function fixtureFile(site: CorpusSite, pathAndQuery: string): string | null {
  const mapped = site.expected.paths?.[pathAndQuery]
  if (mapped) return mapped
  const url = new URL(pathAndQuery, 'http://corpus.test')
  if (url.search) return null
  const segment = url.pathname.replace(/\/+$/, '').split('/').pop() ?? ''
  const name = segment === '' || segment === 'index.html' ? 'index.html' : segment.endsWith('.html') || segment.endsWith('.xml') || segment === 'robots.txt' ? segment : `${segment}.html`
  return fs.existsSync(path.join(SITES_DIR, site.name, name)) ? name : null
}

function siteOrigin(site: CorpusSite): RegExp {
  const host = new URL(site.expected.url).hostname.replace(/^www\./, '').replace(/\./g, '\\.')
  return new RegExp(`https?://(?:www\\.)?${host}(?=[/"'?#<\\s]|$)`, 'g')
}

export async function startCorpusServer(sites: CorpusSite[]): Promise<CorpusServer> {
  const byHost = new Map(sites.map((site) => [hostOf(site), site]))
  const server = await startFixtureServer((request) => {
    const [hostname, port] = String(request.headers.host ?? '').split(':')
    const site = byHost.get(hostname ?? '')
    const file = site ? fixtureFile(site, request.path) : null
    if (!site || !file) return { status: 404, body: 'not found', headers: { 'content-type': 'text/plain' } }
    const origin = `http://${hostname}:${port}`
    const body = fs.readFileSync(path.join(SITES_DIR, site.name, file), 'utf8').replaceAll('{{origin}}', origin).replace(siteOrigin(site), origin)
    const type = file.endsWith('.xml') ? 'application/xml' : file.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8'
    return { status: 200, body, headers: { 'content-type': type, ...(file === 'index.html' ? site.expected.homeHeaders : {}) } }
  })
  const port = new URL(server.url).port
  return {
    startUrl: (site) => `http://${hostOf(site)}:${port}/`,
    hosts: sites.map((site) => `${hostOf(site)}:${port}`),
    lookup: async (hostname) => {
      if (!byHost.has(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
      return [{ address: '127.0.0.1', family: 4 }]
    },
    fileOf: (site, url) => fixtureFile(site, new URL(url).pathname + new URL(url).search),
    server,
    stop: () => server.stop(),
  }
}
