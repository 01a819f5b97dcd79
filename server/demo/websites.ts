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
import { pathToFileURL } from 'node:url'
import { demoRobotsTxt, demoSite } from '#app/.server/sources/demo/site.ts'
import { type DemoPage, renderDemoPage, renderNotFound } from '#app/.server/sources/demo/site-pages.ts'
import { type DemoReply, type DemoServer, type DemoServerOptions, serveDemo, stopOnSignals } from './serve.ts'
import { env } from '#app/.server/env.server.ts'

export { demoSiteTruth, type DemoSiteTruth } from '#app/.server/sources/demo/site.ts'
export { cloudflareEncode } from '#app/.server/sources/demo/site-pages.ts'

/** Options of the shared demo server; the port is remembered as "demo-websites". Benchmarks add latency (50 ms). */
export type DemoWebsitesOptions = DemoServerOptions
/** `url` (no trailing slash, e.g. http://127.0.0.1:41234) is what DEMO_WEBSITES_URL takes. */
export type DemoWebsites = DemoServer

const SLUG = /^[a-z0-9][a-z0-9-]{0,150}$/

const PAGES: Record<string, DemoPage> = {
  '': 'home',
  contact: 'contact',
  'contact/': 'contact',
  'mentions-legales': 'legal',
  'mentions-legales/': 'legal',
  'private/contact': 'private',
}

const HTML = 'text/html; charset=utf-8'

/** `origin` (e.g. http://127.0.0.1:4321) makes the JSON-LD url absolute. */
function routeDemoRequest(method: string, rawPath: string, origin = ''): DemoReply {
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

function notFound(): DemoReply {
  return { status: 404, headers: { 'Content-Type': HTML }, body: renderNotFound() }
}

export function startDemoWebsites(options: DemoWebsitesOptions = {}): Promise<DemoWebsites> {
  return serveDemo('demo-websites', options, (method, path, req) => routeDemoRequest(method, path, req.headers.host ? `http://${req.headers.host}` : ''))
}

// `npx tsx server/demo/websites.ts` serves the sites on their own (handy to look at them in a browser).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sites = await startDemoWebsites({
    port: env.PORT ?? 0,
    host: env.HOST,
    latencyMs: env.LATENCY_MS,
  })
  console.log(`Demo websites at ${sites.url} (set DEMO_WEBSITES_URL=${sites.url})`)
  stopOnSignals(sites)
}
