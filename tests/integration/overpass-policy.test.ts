// The Overpass usage policy of the OSM source (app/.server/sources/osm.ts): one query per area and category, a cache
// by area + category, shared requests in flight, at most 2 at once, back-off after 429 / remark, a User-Agent with a
// contact. Recorded answers on loopback; the back-off runs on a test clock.
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#app/.server/env.server.ts'
import { NO_FILTERS } from '#app/domain/search-filters.ts'
import { COUNT_SCAN_LIMIT, scanMatches } from '#app/.server/search/match-count.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { clearOverpassCache, createOsmSource, overpassBackoffSeconds } from '#app/.server/sources/osm.ts'
import type { ResolvedCategory } from '#app/.server/sources/types.ts'
import { DEFAULT_CONTACT_URL } from '#app/.server/sources/user-agent.ts'
import { type FixtureServer, fixtureServers } from '#tests/support/fixture-server.ts'
import { collectBusinesses as collect, leadSourceError as refusal } from '#tests/support/lead-source.ts'
import { resolvedParams } from '#tests/support/lead-source.ts'

function fixture(path: string): string {
  return fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8')
}
const BAKERIES = () => ({ body: fixture('osm/bakeries-lyon.json'), headers: { 'Content-Type': 'application/json' } })
const EMPTY = () => ({ body: fixture('osm/empty.json'), headers: { 'Content-Type': 'application/json' } })

const BAKERY: ResolvedCategory = { id: 'shop-bakery', label: 'Boulangerie', osm: { key: 'shop', value: 'bakery' } }
const BUTCHER: ResolvedCategory = { id: 'shop-butcher', label: 'Boucherie', osm: { key: 'shop', value: 'butcher' } }
const LYON = resolvedParams({ country: 'France', countryCode: 'FR', city: 'Lyon', lang: 'fr' })
const RHONE = resolvedParams({ country: 'France', countryCode: 'FR', department: 'Rhône', lang: 'fr' })

const { serve, stopAll } = fixtureServers()
afterEach(async () => {
  await stopAll()
  clearOverpassCache()
})

/** A source on a clock the test moves. */
function osmAt(server: FixtureServer, clock: { now: number } = { now: Date.now() }) {
  return createOsmSource({ endpoint: `${server.url}/api/interpreter`, userAgent: 'LeadAtlas/0.1 (+https://leadatlas.test/contact)', now: () => clock.now })
}

describe('one query per area and category', () => {
  it('serves the preview, its count and the export from one Overpass answer, whatever the limit', async () => {
    const server = await serve(BAKERIES)
    const source = osmAt(server)
    const preview = await scanMatches(source, LYON, BAKERY, NO_FILTERS) // reads COUNT_SCAN_LIMIT + 1
    expect(preview.preview).toHaveLength(4)
    expect(await collect(source, LYON, BAKERY, { limit: 20 })).toHaveLength(4)
    expect(await collect(source, LYON, BAKERY, { limit: 5_000 })).toHaveLength(4) // an export with its gates
    expect(await collect(source, LYON, BAKERY, { limit: 1 })).toHaveLength(1)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.form?.get('data')).toMatch(/out center tags 10000;$/)
    expect(COUNT_SCAN_LIMIT + 1).toBeLessThan(10_000)
  })

  it('shares the cache between source instances (the app and the in-process worker build their own)', async () => {
    const server = await serve(BAKERIES)
    await collect(osmAt(server), LYON, BAKERY, { limit: 20 })
    await collect(osmAt(server), LYON, BAKERY, { limit: 1_000 })
    expect(server.requests).toHaveLength(1)
  })

  it('asks again for another area or another category', async () => {
    const server = await serve(EMPTY)
    const source = osmAt(server)
    await collect(source, LYON, BAKERY)
    await collect(source, LYON, BUTCHER)
    await collect(source, RHONE, BAKERY)
    await collect(source, RHONE, BAKERY)
    expect(server.requests).toHaveLength(3)
  })

  it('joins an identical query already in flight instead of sending a second one', async () => {
    const server = await serve(() => ({ ...BAKERIES(), delayMs: 150 }))
    const source = osmAt(server)
    const [a, b] = await Promise.all([collect(source, LYON, BAKERY, { limit: 20 }), collect(source, LYON, BAKERY, { limit: 2_001 })])
    expect(a).toHaveLength(4)
    expect(b).toHaveLength(4)
    expect(server.requests).toHaveLength(1)
  })

  it('keeps the shared request for the callers still waiting when one gives up', async () => {
    const server = await serve(() => ({ ...BAKERIES(), delayMs: 200 }))
    const source = osmAt(server)
    const leaving = new AbortController()
    const first = collect(source, LYON, BAKERY, { signal: leaving.signal })
    const second = collect(source, LYON, BAKERY)
    setTimeout(() => leaving.abort(new Error('user left')), 50)
    await expect(first).rejects.toThrow('user left')
    expect(await second).toHaveLength(4)
    expect(server.requests).toHaveLength(1)
  })

  it('sends at most 2 requests at once to an endpoint (its slots per IP)', async () => {
    let active = 0
    let most = 0
    const server = await serve(async () => {
      active++
      most = Math.max(most, active)
      await new Promise((resolve) => setTimeout(resolve, 80))
      active--
      return EMPTY()
    })
    const source = osmAt(server)
    const areas = ['Lyon', 'Villeurbanne', 'Vénissieux', 'Bron', 'Caluire-et-Cuire'].map((city) => ({ ...LYON, city }))
    await Promise.all(areas.map((area) => collect(source, area, BAKERY)))
    expect(server.requests).toHaveLength(5)
    expect(most).toBe(2)
  })
})

describe('back-off', () => {
  it('after a 429 with Retry-After, sends nothing until it has passed; cached answers are still served', async () => {
    const server = await serve((request) =>
      request.form?.get('data')?.includes('"butcher"')
        ? { status: 429, headers: { 'Retry-After': '30', 'Content-Type': 'text/html' }, body: fixture('osm/rate-limited.html') }
        : BAKERIES(),
    )
    const clock = { now: Date.now() }
    const source = osmAt(server, clock)
    await collect(source, LYON, BAKERY)
    const limited = await refusal(collect(source, LYON, BUTCHER))
    expect(limited).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30 })
    expect(server.requests).toHaveLength(2)

    // Within the window: another search fails at once, with how long is left, and sends nothing.
    clock.now += 20_000
    const waiting = await refusal(collect(source, RHONE, BAKERY))
    expect(waiting).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 10 })
    expect(server.requests).toHaveLength(2)
    // The answer already cached costs Overpass nothing: it is served.
    expect(await collect(source, LYON, BAKERY)).toHaveLength(4)
    expect(server.requests).toHaveLength(2)

    clock.now += 11_000
    expect(await collect(source, RHONE, BAKERY)).toHaveLength(4)
    expect(server.requests).toHaveLength(3)
  })

  it('without Retry-After, waits 10 s, then twice as long after each failure in a row, until a success', async () => {
    let status = 429
    const server = await serve(() => (status === 429 ? { status: 429, body: 'Too Many Requests' } : EMPTY()))
    const clock = { now: 1_000_000 }
    const source = osmAt(server, clock)
    const endpoint = `${server.url}/api/interpreter`
    const city = (name: string) => ({ ...LYON, city: name })

    expect((await refusal(collect(source, city('Lyon'), BAKERY))).retryAfterSeconds).toBe(10)
    clock.now += 9_000
    await refusal(collect(source, city('Bron'), BAKERY))
    expect(server.requests).toHaveLength(1)

    clock.now += 2_000
    expect((await refusal(collect(source, city('Bron'), BAKERY))).retryAfterSeconds).toBe(20)
    expect(server.requests).toHaveLength(2)
    expect(overpassBackoffSeconds(endpoint, clock.now)).toBe(20)

    clock.now += 21_000
    status = 200
    await collect(source, city('Bron'), BAKERY)
    expect(server.requests).toHaveLength(3)
    // The success reset the count: the next 429 waits 10 s again.
    status = 429
    expect((await refusal(collect(source, city('Vaulx-en-Velin'), BAKERY))).retryAfterSeconds).toBe(10)
  })

  it('backs off after a remark (a query that failed part-way with HTTP 200), reported as a timeout', async () => {
    const server = await serve(() => ({ body: fixture('osm/remark-timeout.json'), headers: { 'Content-Type': 'application/json' } }))
    const clock = { now: Date.now() }
    const source = osmAt(server, clock)
    expect((await refusal(collect(source, LYON, BAKERY))).code).toBe('timeout')
    clock.now += 5_000
    expect(await refusal(collect(source, RHONE, BAKERY))).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 5 })
    expect(server.requests).toHaveLength(1)
  })

  it('applies to every source instance of the endpoint (the preview and the export worker alike)', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'Retry-After': '60' }, body: 'Too Many Requests' }))
    await refusal(collect(osmAt(server), LYON, BAKERY))
    const other = await refusal(collect(osmAt(server), RHONE, BAKERY))
    expect(other.code).toBe('rate_limited')
    expect(server.requests).toHaveLength(1)
  })
})

describe('User-Agent', () => {
  async function userAgentOf(env: Record<string, string>) {
    const server = await serve(EMPTY)
    await collect(getLeadSource(parseEnv({ LEADS_SOURCE: 'osm', OVERPASS_URL: `${server.url}/api/interpreter`, ...env })), LYON, BAKERY)
    return server.requests[0]?.headers['user-agent']
  }

  it('names LEADATLAS_CONTACT_URL, else the public APP_URL, else the product bot page', async () => {
    expect(await userAgentOf({ LEADATLAS_CONTACT_URL: 'mailto:ops@example.org' })).toBe('LeadAtlas/0.1 (+mailto:ops@example.org)')
    expect(await userAgentOf({ APP_URL: 'https://leads.acme-prospects.fr' })).toBe('LeadAtlas/0.1 (+https://leads.acme-prospects.fr)')
    // A loopback or private APP_URL reaches nobody: the default contact stands in.
    expect(await userAgentOf({ APP_URL: 'http://127.0.0.1:3000' })).toBe(`LeadAtlas/0.1 (+${DEFAULT_CONTACT_URL})`)
    expect(await userAgentOf({ APP_URL: 'http://192.168.1.20:3000' })).toBe(`LeadAtlas/0.1 (+${DEFAULT_CONTACT_URL})`)
    expect(await userAgentOf({ APP_URL: 'http://leadatlas.localhost:3000' })).toBe(`LeadAtlas/0.1 (+${DEFAULT_CONTACT_URL})`)
    expect(await userAgentOf({})).toBe(`LeadAtlas/0.1 (+${DEFAULT_CONTACT_URL})`)
  })
})
