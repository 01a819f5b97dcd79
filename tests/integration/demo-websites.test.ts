import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { demoSlug } from '#app/.server/sources/demo/identity.ts'
import { prettifySlugName, SECTORS, slugify } from '#app/.server/sources/demo/vocabulary.ts'
import { businessName } from '#app/.server/sources/demo/names.ts'
import { Rng } from '#app/.server/sources/demo/prng.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { realisticSiteLatency } from '#app/.server/sources/demo/site-latency.ts'
import type { SiteTrafficReport } from '#server/demo/site-traffic.ts'
import { type DemoSiteTruth, type DemoWebsites, demoSiteTruth, startDemoWebsites } from '#server/demo/websites.ts'
import { resolvedParams } from '#tests/support/lead-source.ts'

// Reference extractors, written independently of the site generator: what the enrichment crawler must manage too.
function cloudflareDecode(hex: string): string {
  const key = parseInt(hex.slice(0, 2), 16)
  let out = ''
  for (let i = 2; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16) ^ key)
  return out
}

function jsonLdBlocks(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1] as string) as Record<string, unknown>)
}

function extractEmails(html: string): Set<string> {
  const found = new Set<string>()
  for (const m of html.matchAll(/href="mailto:([^"?]+)/gi)) found.add(decodeURIComponent(m[1] as string).toLowerCase())
  for (const m of html.matchAll(/data-cfemail="([0-9a-f]+)"/gi)) found.add(cloudflareDecode(m[1] as string))
  for (const block of jsonLdBlocks(html)) if (typeof block.email === 'string') found.add(block.email.toLowerCase())
  const text = html.replace(/<[^>]+>/g, ' ')
  for (const m of text.matchAll(/([a-z0-9._-]+)\s*[[(]at[\])]\s*([a-z0-9-]+(?:\s*(?:\[dot\]|\.)\s*[a-z0-9-]+)+)/gi)) {
    found.add(`${m[1]}@${(m[2] as string).replace(/\s*\[dot\]\s*/g, '.')}`.toLowerCase())
  }
  return found
}

function extractSocials(html: string): Set<string> {
  const links = [...html.matchAll(/href="(https:\/\/(?:www\.)?(?:facebook|instagram|linkedin|twitter|x|tiktok)\.com\/[^"]+)"/g)]
    .map((m) => (m[1] as string).replace(/&amp;/g, '&'))
    .filter((url) => !/sharer|intent\//.test(url))
  const sameAs = jsonLdBlocks(html).flatMap((block) => (Array.isArray(block.sameAs) ? (block.sameAs as string[]) : []))
  return new Set([...links, ...sameAs])
}

/** Patterns in the spirit of the Wappalyzer fingerprints for the technologies the demo sites use. */
function detectTechnologies(html: string, headers: Headers): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>()
  const generator = /<meta name="generator" content="([^"]+)"/.exec(html)?.[1] ?? ''
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1] as string)
  const styles = [...html.matchAll(/<link[^>]+href="([^"]+)"/g)].map((m) => m[1] as string)
  const wp = /^WordPress(?: ([\d.]+))?/.exec(generator)
  if (wp) found.set('WordPress', wp[1])
  for (const src of scripts) {
    const jq = /jquery(?:-(\d+\.\d+\.\d+))[/.-]/.exec(src)
    if (jq) found.set('jQuery', jq[1])
    const bs = /bootstrap@([\d.]+)\/.*bootstrap(?:\.bundle)?(?:\.min)?\.js/.exec(src)
    if (bs) found.set('Bootstrap', bs[1])
    if (/googletagmanager\.com\/gtag\/js/.test(src)) found.set('Google Analytics', undefined)
    if (/cdn\.shopify\.com/.test(src)) found.set('Shopify', undefined)
    if (/static\.parastorage\.com/.test(src)) found.set('Wix', undefined)
  }
  if (styles.some((href) => /bootstrap@[\d.]+\/dist\/css\/bootstrap\.min\.css/.test(href)) && !found.has('Bootstrap')) found.set('Bootstrap', undefined)
  if (/Wix\.com Website Builder/.test(generator) || headers.has('x-wix-request-id')) found.set('Wix', undefined)
  if (headers.has('x-shopid')) found.set('Shopify', undefined)
  if (/^Joomla!/.test(generator)) found.set('Joomla', undefined)
  if (/PrestaShop/.test(generator) || /^prestashop$/i.test(headers.get('powered-by') ?? '')) found.set('PrestaShop', undefined)
  const php = /^php\/?([\d.]+)?/i.exec(headers.get('x-powered-by') ?? '')
  if (php) found.set('PHP', php[1])
  const nginx = /nginx(?:\/([\d.]+))?/i.exec(headers.get('server') ?? '')
  if (nginx) found.set('Nginx', nginx[1])
  if (/^cloudflare$/i.test(headers.get('server') ?? '') && headers.has('cf-ray')) found.set('Cloudflare', undefined)
  return found
}

/** Google-style robots.txt matching: `*` is any run of characters, rules match path prefixes. */
function robotsDisallows(robots: string, path: string): boolean {
  return robots
    .split('\n')
    .filter((line) => line.startsWith('Disallow:'))
    .map((line) => line.slice('Disallow:'.length).trim())
    .some((rule) => rule && new RegExp(`^${rule.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}`).test(path))
}

let sites: DemoWebsites
let businesses: Business[]
const requested: string[] = []

beforeAll(async () => {
  sites = await startDemoWebsites({ onRequest: ({ path }) => requested.push(path) })
  const demo = createDemoSource({ websitesBaseUrl: sites.url })
  businesses = []
  for await (const business of demo.search(resolvedParams({ country: 'France', countryCode: 'FR', lang: 'fr' }), null, {})) businesses.push(business)
})
afterAll(async () => {
  await sites?.stop()
})

function slugOf(business: Business): string {
  return (business.website as string).slice(`${sites.url}/sites/`.length, -1)
}

async function page(path: string) {
  const response = await fetch(`${sites.url}${path}`, { redirect: 'manual' })
  return { status: response.status, headers: response.headers, html: await response.text() }
}

/** A sample covering every email markup and every site stack, plus robots-disallowed sites. */
function sample(): { business: Business; truth: DemoSiteTruth }[] {
  const all = businesses.filter((b) => b.website).map((business) => ({ business, truth: demoSiteTruth(slugOf(business)) }))
  const picked = new Map<string, { business: Business; truth: DemoSiteTruth }>()
  for (const entry of all) {
    for (const key of [`markup:${entry.truth.emailMarkup}`, `stack:${entry.truth.stack}`, `robots:${entry.truth.robotsDisallowPrivate}`, `siret:${!!entry.truth.siret}`]) {
      if (!picked.has(key)) picked.set(key, entry)
    }
  }
  return [...new Set([...picked.values(), ...all.slice(0, 12)])]
}

describe('demo websites', () => {
  it('covers every email markup and site stack across demo businesses', () => {
    const truths = businesses.filter((b) => b.website).map((b) => demoSiteTruth(slugOf(b)))
    expect(new Set(truths.map((t) => t.emailMarkup))).toEqual(new Set(['mailto', 'mailto-encoded', 'obfuscated', 'cloudflare', 'json-ld', 'none']))
    expect(new Set(truths.map((t) => t.stack))).toEqual(new Set(['wordpress', 'bootstrap', 'wix', 'shopify', 'joomla', 'prestashop']))
    expect(truths.some((t) => t.emails.length > 1)).toBe(true)
    expect(truths.some((t) => Object.keys(t.socialMedia).length === 0)).toBe(true)
    expect(new Set(truths.flatMap((t) => Object.keys(t.socialMedia)))).toEqual(new Set(['facebook', 'instagram', 'linkedin', 'twitter', 'tiktok']))
  })

  it('serves sites whose content matches the business and the exported truth', async () => {
    for (const { business, truth } of sample()) {
      const slug = slugOf(business)
      const home = await page(`/sites/${slug}/`)
      const contact = await page(`/sites/${slug}/contact`)
      const legal = await page(`/sites/${slug}/mentions-legales`)
      for (const p of [home, contact, legal]) {
        expect(p.status).toBe(200)
        expect(p.headers.get('content-type')).toBe('text/html; charset=utf-8')
      }
      const html = home.html + contact.html + legal.html

      // Same business as the lead source listed.
      expect(truth.name).toBe(business.name)
      expect(home.html).toContain(`<h1>${truth.name.replace(/&/g, '&amp;').replace(/'/g, "'")}</h1>`)
      expect(truth.city).toBe(business.city)
      expect(truth.postalCode).toBe(business.postalCode)
      expect(business.address).toBe(`${truth.streetAddress}, ${truth.postalCode} ${truth.city}`)
      if (business.phone) expect(truth.phone).toBe(business.phone)
      expect(home.html).toContain(truth.phone as string)

      expect(extractEmails(html), slug).toEqual(new Set(truth.emails))
      for (const decoy of truth.decoys.emails) expect(html).toContain(decoy)
      expect(extractSocials(html), slug).toEqual(new Set(Object.values(truth.socialMedia)))
      for (const link of truth.decoys.socialLinks) expect(html).toContain(link)

      const detected = detectTechnologies(home.html, home.headers)
      expect([...detected.keys()].sort(), slug).toEqual(truth.technologies.map((t) => t.name).sort())
      for (const technology of truth.technologies) if (technology.version) expect(detected.get(technology.name), technology.name).toBe(technology.version)

      if (truth.siret) expect(legal.html.replace(/(\d) (?=\d)/g, '$1')).toContain(truth.siret)
      else expect(legal.html).not.toContain('SIRET')
      expect(html).not.toContain(truth.privateEmail ?? '@@none@@')
    }
  })

  it('serves robots.txt, hiding /private on a third of the sites', async () => {
    const robots = await page('/robots.txt')
    expect(robots.status).toBe(200)
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(robots.html).toMatch(/^User-agent: \*\n/)
    const truths = businesses.filter((b) => b.website).map((b) => demoSiteTruth(slugOf(b)))
    const share = truths.filter((t) => t.robotsDisallowPrivate).length / truths.length
    expect(share).toBeGreaterThan(0.2)
    expect(share).toBeLessThan(0.45)

    const hidden = truths.find((t) => t.robotsDisallowPrivate) as DemoSiteTruth
    const open = truths.find((t) => !t.robotsDisallowPrivate) as DemoSiteTruth
    expect(robotsDisallows(robots.html, `/sites/${hidden.slug}/private/contact`)).toBe(true)
    expect(robotsDisallows(robots.html, `/sites/${hidden.slug}/`)).toBe(false)
    expect(robotsDisallows(robots.html, `/sites/${hidden.slug}/contact`)).toBe(false)
    expect(robotsDisallows(robots.html, `/sites/${open.slug}/private/contact`)).toBe(false)

    // The hidden page exists, is linked from the home page, and holds the one email a polite crawler never sees.
    const home = await page(`/sites/${hidden.slug}/`)
    expect(home.html).toContain(`/sites/${hidden.slug}/private/contact`)
    const secret = await page(`/sites/${hidden.slug}/private/contact`)
    expect(secret.status).toBe(200)
    expect(secret.html).toContain(hidden.privateEmail)
    expect((await page(`/sites/${open.slug}/private/contact`)).status).toBe(404)
  })

  it('answers 404 for unknown paths, redirects the bare slug, and only serves GET and HEAD', async () => {
    const slug = slugOf(businesses.find((b) => b.website) as Business)
    expect((await page(`/sites/${slug}/nope`)).status).toBe(404)
    expect((await page('/wp-login.php')).status).toBe(404)
    expect((await page('/sites/Not_A_Slug/')).status).toBe(404)
    const bare = await page(`/sites/${slug}`)
    expect(bare.status).toBe(301)
    expect(bare.headers.get('location')).toBe(`/sites/${slug}/`)
    const head = await fetch(`${sites.url}/sites/${slug}/`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect((await fetch(`${sites.url}/sites/${slug}/contact`, { method: 'POST', body: 'x' })).status).toBe(405)
    expect(requested).toContain(`/sites/${slug}/nope`)
  })

  it('renders any slug deterministically', async () => {
    const a = await page('/sites/zorglub-quux/')
    const b = await page('/sites/zorglub-quux/')
    expect(a.status).toBe(200)
    expect(a.html).toBe(b.html)
    expect(a.html).toContain('<h1>Zorglub Quux</h1>')
    expect(demoSiteTruth('zorglub-quux')).toEqual(demoSiteTruth('zorglub-quux'))
    const [ld] = jsonLdBlocks(a.html)
    expect(ld?.url).toBe(`${sites.url}/sites/zorglub-quux/`)
  })

  it('adds the configured latency to every response', async () => {
    const slow = await startDemoWebsites({ latencyMs: 150 })
    try {
      const started = performance.now()
      const response = await fetch(`${slow.url}/robots.txt`)
      await response.text()
      expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    } finally {
      await slow.stop()
    }
  })
})

describe('demo websites with the realistic latency profile', () => {
  /** Among many slugs, the one of this behaviour that answers fastest (the profile's delays are seconds). */
  function fastest(behaviour: string): string {
    const slugs = Array.from({ length: 3_000 }, (_, i) => `realistic-${i}`).filter((slug) => realisticSiteLatency(slug).behaviour === behaviour)
    return slugs.sort((a, b) => realisticSiteLatency(a).delayMs - realisticSiteLatency(b).delayMs)[0] as string
  }
  const traffic = async (server: DemoWebsites) => (await (await fetch(`${server.url}/_demo/traffic`)).json()) as SiteTrafficReport

  it('loses homepages, moves them, and counts what it answered per site', async () => {
    const real = await startDemoWebsites({ latencyProfile: 'realistic' })
    try {
      const missing = await fetch(`${real.url}/sites/${fastest('not_found')}/`)
      expect(missing.status).toBe(404)
      const moved = await fetch(`${real.url}/sites/${fastest('redirect')}/`)
      expect(moved.status).toBe(200)
      expect(moved.url).toBe(`${real.url}/sites/${fastest('redirect')}/accueil`)
      expect(await moved.text()).toContain('<nav>')
      const report = await traffic(real)
      expect(report).toMatchObject({ requests: 3, peakPerSite: 1, inFlight: 0, answers: { not_found: 1, redirect: 1, redirect_followed: 1 } })
    } finally {
      await real.stop()
    }
  })

  it('never answers a hanging site, and forgets the request when the client gives up', async () => {
    const real = await startDemoWebsites({ latencyProfile: 'realistic' })
    try {
      const client = new AbortController()
      const pending = fetch(`${real.url}/sites/${fastest('hang')}/`, { signal: client.signal })
      await vi.waitFor(async () => expect((await traffic(real)).inFlight).toBe(1))
      client.abort()
      await expect(pending).rejects.toThrow()
      await vi.waitFor(async () => expect((await traffic(real)).inFlight).toBe(0))
      expect((await traffic(real)).answers).toEqual({ hang: 1 })
    } finally {
      await real.stop()
    }
  })
})

describe('demo business names', () => {
  it('come back exactly from their slug for every built-in sector', () => {
    const rng = new Rng(42)
    for (const sector of SECTORS) {
      for (let i = 0; i < 60; i++) {
        const name = businessName(rng, { sector, label: sector.label.fr, french: true })
        expect(prettifySlugName(slugify(name)), name).toBe(name)
      }
    }
  })

  it('keep slugs parseable whatever the name', () => {
    const slug = demoSlug('Très "Longue" Enseigne : Boulangerie, Pâtisserie, Chocolaterie & Salon de Thé du Vieux Lyon', null, 0xffffffff)
    expect(slug).toMatch(/^[a-z0-9-]+$/)
    expect(slug.endsWith('-1z141z3')).toBe(true)
    expect(demoSiteTruth(slug).name).toMatch(/^Tres Longue Enseigne/)
  })
})
