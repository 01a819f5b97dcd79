/**
 * Demo business websites, served on loopback so the enrichment pipeline (crawler, email/social/technology
 * extraction, robots.txt, legal notices) runs for real without internet. Every slug renders a small, deterministic
 * site matching the demo business that links to it (app/.server/sources/demo/site.ts holds the model).
 *
 *   GET /robots.txt                      shared rules; a third of the sites disallow their /private pages
 *   GET /sites/<slug>/                   home page
 *   GET /sites/<slug>/contact            contact page
 *   GET /sites/<slug>/mentions-legales   legal notice (SIRET for some)
 *   GET /sites/<slug>/private/contact    only on robots-disallowed sites
 *
 * Run alone with `npx tsx server/demo/websites.ts` (PORT, HOST, LATENCY_MS).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { demoRobotsTxt, demoSite } from '#app/.server/sources/demo/site.ts'
import { type DemoPage, renderDemoPage, renderNotFound } from '#app/.server/sources/demo/site-pages.ts'
import { listenOnRememberedPort } from '../remembered-port.ts'
import { env } from '#app/.server/env.server.ts'

export { demoSiteTruth, type DemoSiteTruth } from '#app/.server/sources/demo/site.ts'
export { cloudflareEncode } from '#app/.server/sources/demo/site-pages.ts'

export interface DemoWebsitesOptions {
  /** 0 or undefined: the port remembered in `dataDir` when given and free, else any free port. */
  port?: number
  /** Remember the port in `<dataDir>/ports.json` ("demo-websites") and reuse it on the next start (server/remembered-port.ts). */
  dataDir?: string
  host?: string
  /** Delay added before every response, to simulate real websites (benchmarks use 50 ms). */
  latencyMs?: number
  /** Observes each request (tests use it to check a crawler's politeness, e.g. robots.txt compliance). */
  onRequest?: (request: { method: string; path: string }) => void
}

export interface DemoWebsites {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:41234 — set it as DEMO_WEBSITES_URL. */
  url: string
  stop: () => Promise<void>
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,150}$/

const PAGES: Record<string, DemoPage> = {
  '': 'home',
  contact: 'contact',
  'contact/': 'contact',
  'mentions-legales': 'legal',
  'mentions-legales/': 'legal',
  'private/contact': 'private',
}

interface Reply {
  status: number
  headers: Record<string, string>
  body: string
}

const HTML = 'text/html; charset=utf-8'

/** `origin` (e.g. http://127.0.0.1:4321) makes the JSON-LD url absolute. */
function routeDemoRequest(method: string, rawPath: string, origin = ''): Reply {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }, body: 'Method not allowed\n' }
  const path = rawPath.split('?')[0] ?? '/'
  if (path === '/robots.txt') return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: demoRobotsTxt() }
  if (path === '/') return { status: 200, headers: { 'Content-Type': HTML }, body: '<!doctype html><title>LeadAtlas demo websites</title><p>Demo business websites: /sites/&lt;slug&gt;/</p>\n' }
  const match = /^\/sites\/([^/]+)(\/.*)?$/.exec(path)
  const slug = match?.[1]
  if (!match || !slug || !SLUG.test(slug)) return notFound()
  // Like most web servers: the directory without its slash redirects to the slash form.
  if (match[2] === undefined) return { status: 301, headers: { Location: `/sites/${slug}/`, 'Content-Type': 'text/plain' }, body: 'Moved\n' }
  const page = PAGES[match[2].slice(1)]
  if (!page) return notFound()
  const site = demoSite(slug)
  if (page === 'private' && !site.robotsDisallowPrivate) return notFound()
  return { status: 200, headers: { ...site.headers, 'Content-Type': HTML }, body: renderDemoPage(site, page, `/sites/${slug}/`, origin) }
}

function notFound(): Reply {
  return { status: 404, headers: { 'Content-Type': HTML }, body: renderNotFound() }
}

export async function startDemoWebsites(options: DemoWebsitesOptions = {}): Promise<DemoWebsites> {
  const { port = 0, host = '127.0.0.1', latencyMs = 0, onRequest, dataDir } = options
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    onRequest?.({ method, path })
    const reply = routeDemoRequest(method, path, req.headers.host ? `http://${req.headers.host}` : '')
    const send = () => {
      if (res.destroyed) return
      res.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body), 'Cache-Control': 'no-store' })
      res.end(method === 'HEAD' ? undefined : reply.body)
    }
    if (latencyMs > 0) setTimeout(send, latencyMs)
    else send()
  })
  await listenOnRememberedPort(server, { port, host, dataDir, name: 'demo-websites' })
  const address = server.address() as AddressInfo
  // Listening on every interface still means "reach me on loopback" for the URL we hand out.
  const loopback = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address
  const urlHost = loopback.includes(':') ? `[${loopback}]` : loopback
  return {
    url: `http://${urlHost}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

// `npx tsx server/demo/websites.ts` serves the sites on their own (handy to look at them in a browser).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sites = await startDemoWebsites({
    port: env.PORT ?? 0,
    host: env.HOST,
    latencyMs: env.LATENCY_MS,
  })
  console.log(`Demo websites at ${sites.url} (set DEMO_WEBSITES_URL=${sites.url})`)
  process.once('SIGINT', () => void sites.stop().then(() => process.exit(0)))
  process.once('SIGTERM', () => void sites.stop().then(() => process.exit(0)))
}
