// LEADS_SOURCE=auto (app/.server/sources/selection.ts): real sources when their recorded answers are served on
// loopback, demo data (and why) when nothing answers. Never leaves the machine.
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parseEnv, setRuntimeSettings, validateEnv } from '#app/.server/env.server.ts'
import { effectiveLeadSource, getLeadSource } from '#app/.server/sources/index.ts'
import { clearOverpassCache, overpassBackoffSeconds } from '#app/.server/sources/osm.ts'
import { OVERPASS_PROBE_QUERY, PUBLIC_REGISTRY_URL, resolveSourceSelection, setSourceSelection, sourceNotices } from '#app/.server/sources/selection.ts'
import { type FixtureHandler, type FixtureResponse, fixtureServers } from '#tests/support/fixture-server.ts'
import { closedPortUrl } from '#tests/support/closed-port.ts'

function fixture(path: string): string {
  return fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8')
}

/** Serves what Overpass and recherche-entreprises answered, by path. */
const recorded: FixtureHandler = (request) => {
  if (request.path === '/api/interpreter') return { body: fixture('osm/probe.json'), headers: { 'Content-Type': 'application/json' } }
  if (request.path.startsWith('/search?')) return { body: fixture('registry/search-probe-boulangerie.json'), headers: { 'Content-Type': 'application/json' } }
  if (request.path.startsWith('/api/interpreter')) return { status: 405, body: 'POST only' }
  return { status: 404, body: 'not found' }
}

const { serve, stopAll } = fixtureServers()


afterEach(async () => {
  await stopAll()
  setSourceSelection(undefined)
  setRuntimeSettings({ LEADS_SOURCE: undefined })
  clearOverpassCache()
})

describe('LEADS_SOURCE=auto', () => {
  it('is the default', () => {
    expect(parseEnv({}).LEADS_SOURCE).toBe('auto')
  })

  it('picks OpenStreetMap and the real registry when both answer (recorded responses on loopback)', async () => {
    const upstream = await serve(recorded)
    const config = parseEnv({ OVERPASS_URL: `${upstream.url}/api/interpreter`, REGISTRY_URL: upstream.url, LEADATLAS_CONTACT_URL: 'mailto:ops@example.org' })
    const selection = await resolveSourceSelection(config)

    expect(selection).toMatchObject({ requested: 'auto', source: 'osm', fallback: null, registry: { kind: 'real', url: upstream.url, reachable: true } })
    expect(selection.summary).toMatch(/^Lead source: OpenStreetMap \(LEADS_SOURCE=auto: Overpass at http:\/\/127\.0\.0\.1:\d+\/api\/interpreter answered in \d+ ms/)
    expect(selection.summary).toContain(`registry: ${upstream.url} (answered in`)
    expect(sourceNotices(selection)).toEqual({ osmUnreachable: false, registryUnreachable: false })

    // What the probes sent: one tiny Overpass query and one registry search, both naming a contact.
    const overpass = upstream.requests.find((r) => r.path === '/api/interpreter')
    expect(overpass?.method).toBe('POST')
    expect(overpass?.form?.get('data')).toBe(OVERPASS_PROBE_QUERY)
    expect(overpass?.headers['user-agent']).toBe('LeadAtlas/0.1 (+mailto:ops@example.org)')
    const registry = upstream.requests.find((r) => r.path.startsWith('/search?'))
    expect(registry?.method).toBe('GET')
    expect(registry?.path).toBe('/search?q=boulangerie&per_page=1')
    expect(upstream.requests).toHaveLength(2)

    // What start-up does with it: from then on LEADS_SOURCE reads osm and the source asks that Overpass.
    setSourceSelection(selection)
    setRuntimeSettings({ LEADS_SOURCE: selection.source })
    expect(validateEnv().LEADS_SOURCE).toBe('osm')
    expect(getLeadSource(parseEnv({ LEADS_SOURCE: 'auto', OVERPASS_URL: config.OVERPASS_URL })).name).toBe('osm')
  })

  it('falls back to demo data, saying why, when nothing answers on the endpoints (closed loopback port)', async () => {
    const closed = await closedPortUrl()
    const selection = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${closed}/api/interpreter`, REGISTRY_URL: closed }))

    expect(selection).toMatchObject({
      requested: 'auto',
      source: 'demo',
      fallback: { reason: 'osm_unreachable', detail: 'connection refused' },
      // Demo businesses are fictional: the local demo registry answers for them.
      registry: { kind: 'demo', reachable: false, detail: 'connection refused' },
    })
    expect(selection.summary).toBe(
      `Lead source: demo data (LEADS_SOURCE=auto: OpenStreetMap could not be reached at ${closed}/api/interpreter: connection refused); registry: the local demo registry (${closed} could not be reached: connection refused)`,
    )
    expect(sourceNotices(selection)).toEqual({ osmUnreachable: true, registryUnreachable: false })
    setSourceSelection(selection)
    expect(effectiveLeadSource(parseEnv({}))).toBe('demo')
    expect(sourceNotices()).toEqual({ osmUnreachable: true, registryUnreachable: false })
  })

  it('waits at most one probe timeout, both probes running at once', async () => {
    const silent = await serve(() => ({ body: {}, delayMs: 5_000 }))
    const started = performance.now()
    const selection = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${silent.url}/api/interpreter`, REGISTRY_URL: silent.url, SOURCE_PROBE_TIMEOUT_MS: '400' }))
    const elapsed = performance.now() - started
    expect(selection.source).toBe('demo')
    expect(selection.fallback?.detail).toBe('no answer within 0.4 s')
    expect(selection.registry).toMatchObject({ kind: 'demo', reachable: false, detail: 'no answer within 0.4 s' })
    expect(silent.requests).toHaveLength(2)
    expect(elapsed).toBeGreaterThanOrEqual(350)
    expect(elapsed).toBeLessThan(800 + 400)
  })

  it('does not take a web page (a captive portal, a wrong URL) for Overpass', async () => {
    const portal = await serve(() => ({ body: '<html><body>Sign in to the Wi-Fi</body></html>', headers: { 'Content-Type': 'text/html' } }))
    const selection = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${portal.url}/api/interpreter`, REGISTRY_URL: portal.url }))
    expect(selection.source).toBe('demo')
    expect(selection.fallback?.detail).toBe('not an Overpass answer')
    expect(selection.registry.detail).toBe('not a registry answer')

    const broken = await serve(() => ({ status: 503, body: 'Service Unavailable' }))
    const down = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${broken.url}/api/interpreter`, REGISTRY_URL: broken.url }))
    expect(down.fallback?.detail).toBe('HTTP 503')
  })

  it('takes a 429 as an answering Overpass, and starts its back-off for the Retry-After', async () => {
    const busy = await serve((request): FixtureResponse =>
      request.path === '/api/interpreter'
        ? { status: 429, headers: { 'Retry-After': '42', 'Content-Type': 'text/html' }, body: fixture('osm/rate-limited.html') }
        : { body: fixture('registry/search-probe-boulangerie.json'), headers: { 'Content-Type': 'application/json' } },
    )
    const endpoint = `${busy.url}/api/interpreter`
    const selection = await resolveSourceSelection(parseEnv({ OVERPASS_URL: endpoint, REGISTRY_URL: busy.url }))
    expect(selection.source).toBe('osm')
    expect(selection.summary).toContain('answered 429 (rate limited: first request in 42 s)')
    expect(overpassBackoffSeconds(endpoint)).toBeGreaterThan(40)
  })

  it('keeps the real registry with OpenStreetMap when only the registry is unreachable, and says so', async () => {
    const overpass = await serve(recorded)
    const closed = await closedPortUrl()
    const selection = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${overpass.url}/api/interpreter`, REGISTRY_URL: closed }))
    // Real businesses never get the demo registry's invented companies: lookups fail (at no cost) until it answers.
    expect(selection).toMatchObject({ source: 'osm', fallback: null, registry: { kind: 'real', url: closed, reachable: false } })
    expect(selection.summary).toContain(`registry: ${closed} could not be reached: connection refused (kept: registry lookups fail, at no cost, until it answers)`)
    expect(sourceNotices(selection)).toEqual({ osmUnreachable: false, registryUnreachable: true })
  })

  it('probes recherche-entreprises when REGISTRY_URL is unset, and uses a reachable REGISTRY_URL even with demo data', async () => {
    const closed = await closedPortUrl()
    // Tests stay offline: the public registry's address is answered here as an unresolvable host.
    const asked: string[] = []
    const loopbackOnly: typeof fetch = async (input, init) => {
      const url = String(input)
      asked.push(url)
      if (!url.startsWith('http://127.0.0.1:')) throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) })
      return fetch(input, init)
    }
    const unset = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${closed}/api/interpreter` }), { fetch: loopbackOnly })
    expect(asked).toContain(`${PUBLIC_REGISTRY_URL}/search?q=boulangerie&per_page=1`)
    expect(unset.registry).toMatchObject({ kind: 'demo', url: PUBLIC_REGISTRY_URL, reachable: false, detail: 'host name not resolved' })
    expect(unset.summary).toContain('registry: the local demo registry (demo businesses are fictional)')

    const registry = await serve(recorded)
    const configured = await resolveSourceSelection(parseEnv({ OVERPASS_URL: `${closed}/api/interpreter`, REGISTRY_URL: registry.url }))
    expect(configured).toMatchObject({ source: 'demo', registry: { kind: 'real', url: registry.url, reachable: true } })
  })
})

describe('explicit LEADS_SOURCE', () => {
  it.each(['demo', 'osm', 'google'] as const)('%s is used as is, without any probe', async (source) => {
    const upstream = await serve(recorded)
    const selection = await resolveSourceSelection(parseEnv({ LEADS_SOURCE: source, OVERPASS_URL: `${upstream.url}/api/interpreter`, REGISTRY_URL: upstream.url }))
    expect(selection).toMatchObject({ requested: source, source, fallback: null, registry: { kind: 'real', url: upstream.url } })
    expect(selection.summary).toMatch(new RegExp(`^Lead source: .+ \\(LEADS_SOURCE=${source}\\); registry: ${upstream.url}$`))
    expect(upstream.requests).toHaveLength(0)
  })

  it('demo without REGISTRY_URL starts the local demo registry, as before', async () => {
    const selection = await resolveSourceSelection(parseEnv({ LEADS_SOURCE: 'demo' }))
    expect(selection).toMatchObject({ source: 'demo', registry: { kind: 'demo' } })
    expect(selection.summary).toBe('Lead source: demo data (LEADS_SOURCE=demo); registry: the local demo registry')
    expect(sourceNotices(selection)).toEqual({ osmUnreachable: false, registryUnreachable: false })
  })

  it('unresolved auto (no start-up ran: scripts, tests) reads as demo', () => {
    setSourceSelection(undefined)
    expect(effectiveLeadSource(parseEnv({}))).toBe('demo')
    expect(getLeadSource(parseEnv({})).name).toBe('demo')
    expect(sourceNotices()).toEqual({ osmUnreachable: false, registryUnreachable: false })
  })
})
