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
 *   GET /_demo/traffic                   what the server saw (site-traffic.ts: requests in flight per site)
 *
 * Latency: every answer after `latencyMs`, or with the realistic profile each site's own time, and a few sites that
 * never answer, lost their homepage or moved it (app/.server/sources/demo/site-latency.ts).
 *
 * Run alone with `npx tsx server/demo/websites.ts` (PORT, HOST, LATENCY_MS, LATENCY_PROFILE).
 */
import { pathToFileURL } from 'node:url'
import { demoRobotsTxt, demoSite } from '#app/.server/sources/demo/site.ts'
import { type DemoPage, renderDemoPage, renderNotFound } from '#app/.server/sources/demo/site-pages.ts'
import { type LatencyProfileName, REDIRECTED_HOME, realisticSiteLatency, type SiteLatency } from '#app/.server/sources/demo/site-latency.ts'
import { type DemoReply, type DemoServer, type DemoServerOptions, serveDemo, stopOnSignals } from './serve.ts'
import { SiteTraffic } from './site-traffic.ts'
import { env } from '#app/.server/env.server.ts'

export { demoSiteTruth, type DemoSiteTruth } from '#app/.server/sources/demo/site.ts'
export { cloudflareEncode } from '#app/.server/sources/demo/site-pages.ts'

/** Options of the shared demo server; the port is remembered as "demo-websites". Benchmarks add latency. */
export interface DemoWebsitesOptions extends DemoServerOptions {
  /** flat (default): every answer after `latencyMs`; realistic: each site's own time and failures (site-latency.ts). */
  latencyProfile?: LatencyProfileName
}
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

const SITE_PATH = /^\/sites\/([^/]+)(\/.*)?$/

/** How a realistic site answers a request for `page` ("" is the homepage), or null when it answers normally. */
function realisticReply(slug: string, page: string, latency: SiteLatency, note: (answer: string) => void): DemoReply | null {
  const delayMs = latency.delayMs
  if (latency.behaviour === 'hang') {
    if (page === '') note('hang')
    return { ...notFound(), delayMs }
  }
  if (page !== '') return null
  note(latency.behaviour)
  if (latency.behaviour === 'not_found') return { ...notFound(), delayMs }
  if (latency.behaviour === 'redirect') return { status: 302, headers: { Location: `/sites/${slug}/${REDIRECTED_HOME}`, 'Content-Type': 'text/plain' }, body: 'Found\n', delayMs }
  return null
}

/** One page of one site; `latency` when the realistic profile is on. `note` counts the homepage answers by kind. */
function routeSite(slug: string, page: string, origin: string, latency: SiteLatency | null, note: (answer: string) => void): DemoReply {
  const special = latency ? realisticReply(slug, page, latency, note) : null
  if (special) return special
  const moved = latency?.behaviour === 'redirect' && page === REDIRECTED_HOME
  if (moved) note('redirect_followed')
  const kind = moved ? 'home' : PAGES[page]
  const delay = latency ? { delayMs: latency.delayMs } : {}
  if (!kind) return { ...notFound(), ...delay }
  const site = demoSite(slug)
  if (kind === 'private' && !site.robotsDisallowPrivate) return { ...notFound(), ...delay }
  return { status: 200, headers: { ...site.headers, 'Content-Type': HTML }, body: renderDemoPage(site, kind, `/sites/${slug}/`, origin), ...delay }
}

interface RouteContext {
  /** e.g. http://127.0.0.1:4321: makes the JSON-LD url absolute. */
  origin: string
  profile: LatencyProfileName
  traffic: SiteTraffic
}

function routeDemoRequest(method: string, rawPath: string, { origin, profile, traffic }: RouteContext): DemoReply {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }, body: 'Method not allowed\n' }
  const path = rawPath.split('?')[0] ?? '/'
  if (path === '/robots.txt') return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: demoRobotsTxt() }
  if (path === '/') return { status: 200, headers: { 'Content-Type': HTML }, body: '<!doctype html><title>LeadAtlas demo websites</title><p>Demo business websites: /sites/&lt;slug&gt;/</p>\n' }
  if (path === '/_demo/traffic') return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(traffic.snapshot()), delayMs: 0 }
  const match = SITE_PATH.exec(path)
  const slug = match?.[1]
  if (!match || !slug || !SLUG.test(slug)) return notFound()
  // Like most web servers: the directory without its slash redirects to the slash form.
  if (match[2] === undefined) return { status: 301, headers: { Location: `/sites/${slug}/`, 'Content-Type': 'text/plain' }, body: 'Moved\n' }
  const latency = profile === 'realistic' ? realisticSiteLatency(slug) : null
  return routeSite(slug, match[2].slice(1), origin, latency, (answer) => traffic.answered(answer))
}

function notFound(): DemoReply {
  return { status: 404, headers: { 'Content-Type': HTML }, body: renderNotFound() }
}

export function startDemoWebsites(options: DemoWebsitesOptions = {}): Promise<DemoWebsites> {
  const { latencyProfile: profile = 'flat', ...serverOptions } = options
  const traffic = new SiteTraffic()
  return serveDemo(
    'demo-websites',
    {
      ...serverOptions,
      // The sites' own traffic accounting, and the caller's (a test watching which requests are open).
      track: (path) => {
        const slug = SITE_PATH.exec(path.split('?')[0] ?? '')?.[1]
        const end = slug ? traffic.begin(slug) : undefined
        const callers = serverOptions.track?.(path)
        return () => {
          end?.()
          callers?.()
        }
      },
    },
    (method, path, req) => routeDemoRequest(method, path, { origin: req.headers.host ? `http://${req.headers.host}` : '', profile, traffic }),
  )
}

// `npx tsx server/demo/websites.ts` serves the sites on their own (handy to look at them in a browser).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sites = await startDemoWebsites({
    port: env.PORT ?? 0,
    host: env.HOST,
    latencyMs: env.LATENCY_MS,
    latencyProfile: env.LATENCY_PROFILE,
  })
  console.log(`Demo websites at ${sites.url} (set DEMO_WEBSITES_URL=${sites.url})`)
  stopOnSignals(sites)
}
