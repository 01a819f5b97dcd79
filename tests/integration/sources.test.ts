import fs from 'node:fs'
import { createRequire } from 'node:module'
import { isValidPhoneNumber } from 'libphonenumber-js'
import { isValidPhoneNumber as isValidPhoneNumberMax } from 'libphonenumber-js/max'
import { afterEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { createGoogleSource, GOOGLE_FIELD_MASK } from '#app/.server/sources/google.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { clearOverpassCache, createOsmSource } from '#app/.server/sources/osm.ts'
import type { Business, ResolvedCategory } from '#app/.server/sources/types.ts'
import { type FixtureHandler, type FixtureServer, fixtureServers } from '#tests/support/fixture-server.ts'
import { collectBusinesses as collect, leadSourceError as failure, resolvedParams, type SearchInput } from '#tests/support/lead-source.ts'

function fixture(path: string): string {
  return fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8')
}
function fixtureJson(path: string): Record<string, unknown> {
  return JSON.parse(fixture(path)) as Record<string, unknown>
}

const BAKERY: ResolvedCategory = { id: 'shop-bakery', label: 'Boulangerie', osm: { key: 'shop', value: 'bakery' }, googleType: 'bakery', naf: ['10.71C'] }
const RESTAURANT: ResolvedCategory = { id: 'restaurant', label: 'Restaurant', osm: { key: 'amenity', value: 'restaurant' }, googleType: 'restaurant' }
const PLUMBER: ResolvedCategory = { id: 'craft-plumber', label: 'Plombier', osm: { key: 'craft', value: 'plumber' }, googleType: 'plumber' }
const FRANCE = { country: 'France', countryCode: 'FR', lang: 'fr' } as const

const { serve, stopAll } = fixtureServers()
afterEach(async () => {
  await stopAll()
  clearOverpassCache()
})

describe('osm source', () => {
  const osm = (server: FixtureServer) => createOsmSource({ endpoint: `${server.url}/api/interpreter`, userAgent: 'LeadAtlas/0.1 (+https://leadatlas.test/contact)' })

  it('maps a recorded Overpass response to businesses', async () => {
    const server = await serve(() => ({ body: fixture('osm/bakeries-lyon.json'), headers: { 'Content-Type': 'application/json' } }))
    const results = await collect(osm(server), { ...FRANCE, city: 'Lyon' }, BAKERY)

    // The unnamed bakery node is skipped: a lead without a name cannot be prospected.
    expect(results.map((b) => b.placeId)).toEqual(['node/1871234567', 'way/234567890', 'node/4567890123', 'relation/9876543'])
    const [fournil, ravel, pains, vaise] = results as [Business, Business, Business, Business]
    expect(fournil).toEqual({
      source: 'osm',
      placeId: 'node/1871234567',
      name: 'Le Fournil du Bœuf',
      address: '12 Rue du Bœuf, 69005 Lyon',
      fullAddressArray: ['12 Rue du Bœuf', '69005 Lyon'],
      city: 'Lyon',
      postalCode: '69005',
      countryCode: 'FR',
      latitude: 45.7629871,
      longitude: 4.8276135,
      businessTypes: ['Boulangerie'],
      website: 'https://www.fournil-du-boeuf.fr/',
      phone: '04 78 37 21 54',
      email: ['contact@fournil-du-boeuf.fr'],
      rating: null,
      reviewCount: null,
      googleMapsUrl: null,
      openingHours: 'Tu-Sa 07:00-19:30; Su 07:00-13:00',
      operationalState: null,
      socialMedia: { facebook: 'https://www.facebook.com/fournildubœuf', instagram: 'https://www.instagram.com/fournil_du_boeuf' },
      siret: '81234567600017',
    })
    // Ways carry a centre; brand stands in for a missing name; ";"-lists keep their first value.
    expect(ravel).toMatchObject({ name: 'Maison Ravel', latitude: 45.7578123, longitude: 4.8320456, phone: '04 72 41 08 19', website: 'https://maison-ravel.fr/lyon-bellecour', address: '3 Place Bellecour, 69002 Lyon' })
    expect(pains).toMatchObject({
      name: 'Pains et Gourmandises SARL',
      email: ['bonjour@pains-gourmandises.fr', 'commandes@pains-gourmandises.fr'],
      website: 'http://pains-gourmandises.fr',
      socialMedia: { twitter: 'https://twitter.com/painsgourmandises', tiktok: 'https://www.tiktok.com/@painsgourmandises' },
      city: 'Lyon', // not tagged: the searched commune
      postalCode: '69007',
    })
    expect(vaise).toMatchObject({ phone: '06 98 76 54 32', siret: null, socialMedia: { linkedin: 'https://www.linkedin.com/company/boulangerie-de-vaise' } })

    const [request] = server.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/api/interpreter')
    expect(request?.headers['user-agent']).toBe('LeadAtlas/0.1 (+https://leadatlas.test/contact)')
    const query = request?.form?.get('data') ?? ''
    expect(query).toContain('[out:json]')
    expect(query).toContain('area["boundary"="administrative"]["admin_level"="8"]["ref:INSEE"="69123"]->.a;')
    expect(query).toContain('nwr["shop"="bakery"](area.a);')
    expect(query).toMatch(/out center tags 10000;$/)
  })

  it('selects a French department by INSEE code and admin level 6', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/empty.json') }))
    expect(await collect(osm(server), { ...FRANCE, department: 'Rhône' }, BAKERY)).toEqual([])
    expect(server.requests[0]?.form?.get('data')).toContain('area["boundary"="administrative"]["admin_level"="6"]["ref:INSEE"="69"]->.a;')

    await collect(osm(server), { ...FRANCE, region: 'Corse', department: 'Corse-du-Sud' }, BAKERY)
    expect(server.requests[1]?.form?.get('data')).toContain('["admin_level"="6"]["ref:INSEE"="2A"]')
    await collect(osm(server), { ...FRANCE, region: 'Bretagne' }, BAKERY)
    expect(server.requests[2]?.form?.get('data')).toContain('["admin_level"="4"]["ref:INSEE"="53"]')
  })

  it('selects areas outside France by ISO 3166 or name and admin level', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/empty.json') }))
    await collect(osm(server), { country: 'Germany', countryCode: 'DE', region: 'DE-BY', lang: 'en' }, BAKERY)
    expect(server.requests[0]?.form?.get('data')).toContain('area["ISO3166-2"="DE-BY"]->.a;')
    await collect(osm(server), { country: 'Germany', countryCode: 'DE', city: 'Augsburg', lang: 'en' }, BAKERY)
    const query = server.requests[1]?.form?.get('data') ?? ''
    expect(query).toContain('area["ISO3166-1"="DE"]["admin_level"="2"]->.c;')
    expect(query).toContain('rel(area.c)["boundary"="administrative"]["admin_level"="8"]["name"="Augsburg"];')
    expect(query).toContain('map_to_area->.a;')
  })

  it('treats a remark as a failure even with HTTP 200', async () => {
    const server = await serve((_req, i) => ({ body: fixtureJson(i === 0 ? 'osm/remark-timeout.json' : 'osm/remark-memory.json') }))
    const timeout = await failure(collect(osm(server), { ...FRANCE, city: 'Lyon' }, BAKERY))
    expect(timeout.code).toBe('timeout')
    expect(timeout.message).toContain('Query timed out')
    // A remark also backs off (tests/integration/overpass-policy.test.ts): start afresh for the second answer.
    clearOverpassCache()
    const memory = await failure(collect(osm(server), { ...FRANCE, city: 'Lyon' }, BAKERY))
    expect(memory.code).toBe('upstream_error')
  })

  it('reports 429 as rate_limited with Retry-After', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'Retry-After': '30', 'Content-Type': 'text/html' }, body: fixture('osm/rate-limited.html') }))
    const error = await failure(collect(osm(server), { ...FRANCE, city: 'Lyon' }, BAKERY))
    expect(error.code).toBe('rate_limited')
    expect(error.retryAfterSeconds).toBe(30)
  })

  it('caches identical queries and honours the limit from the one cached answer', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/bakeries-lyon.json') }))
    const source = osm(server)
    expect(await collect(source, { ...FRANCE, city: 'Lyon' }, BAKERY)).toHaveLength(4)
    expect(await collect(source, { ...FRANCE, city: 'Lyon' }, BAKERY)).toHaveLength(4)
    const limited = await collect(source, { ...FRANCE, city: 'Lyon' }, BAKERY, { limit: 2 })
    expect(limited).toHaveLength(2)
    // One query per area and category, asked at the source's ceiling whatever the caller's limit.
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.form?.get('data')).toMatch(/out center tags 10000;$/)
  })

  it('needs a category unless a city is given', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/empty.json') }))
    const error = await failure(collect(osm(server), { ...FRANCE, department: 'Rhône' }, null))
    expect(error.code).toBe('bad_request')
    expect(server.requests).toHaveLength(0)
    await collect(osm(server), { ...FRANCE, city: 'Lyon' }, null)
    const query = server.requests[0]?.form?.get('data') ?? ''
    expect(query).toContain('nwr["shop"](area.a);')
    expect(query).toMatch(/nwr\["amenity"~"\^\(restaurant\|cafe\|bar\|/)
  })

  it('searches free text in names', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/empty.json') }))
    await collect(osm(server), { ...FRANCE, city: 'Lyon' }, { id: 'bouchon "lyonnais"', label: 'bouchon "lyonnais"' })
    expect(server.requests[0]?.form?.get('data')).toContain('["name"~"bouchon \\"lyonnais\\"",i](area.a);')
  })

  it('is chosen by LEADS_SOURCE=osm with the endpoint and contact URL from the environment', async () => {
    const server = await serve(() => ({ body: fixtureJson('osm/empty.json') }))
    const source = getLeadSource(parseEnv({ LEADS_SOURCE: 'osm', OVERPASS_URL: `${server.url}/interpreter`, LEADATLAS_CONTACT_URL: 'https://example.org/about' }))
    expect(source.name).toBe('osm')
    await collect(source, { ...FRANCE, city: 'Lyon' }, BAKERY)
    expect(server.requests[0]?.path).toBe('/interpreter')
    expect(server.requests[0]?.headers['user-agent']).toBe('LeadAtlas/0.1 (+https://example.org/about)')
  })
})

describe('google source', () => {
  const PAGES = ['google/plumbers-lyon-page1.json', 'google/plumbers-lyon-page2.json', 'google/plumbers-lyon-page3.json']
  const google = (server: FixtureServer) => createGoogleSource({ apiKey: 'test-key', baseUrl: server.url })
  const LYON = { ...FRANCE, region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
  /** Answers like Google: the page a request's pageToken points to (the first page without one). */
  const paged: FixtureHandler = (request) => {
    const token = (request.json as { pageToken?: string }).pageToken
    const index = token ? PAGES.findIndex((page) => fixtureJson(page).nextPageToken === token) + 1 : 0
    return index > 0 || !token ? { body: fixtureJson(PAGES[index] as string) } : { status: 400, body: { error: { code: 400, message: 'Invalid page token', status: 'INVALID_ARGUMENT' } } }
  }

  it('pages with nextPageToken, repeating the other parameters', async () => {
    const server = await serve(paged)
    const results = await collect(google(server), LYON, PLUMBER)
    expect(results).toHaveLength(45)
    expect(server.requests).toHaveLength(3)

    const bodies = server.requests.map((r) => r.json as Record<string, unknown>)
    expect(bodies[0]).toEqual({ textQuery: 'Plombier in Lyon, Rhône', languageCode: 'fr', regionCode: 'FR', includedType: 'plumber', pageSize: 20 })
    expect(bodies[1]).toEqual({ ...bodies[0], pageToken: fixtureJson(PAGES[0] as string).nextPageToken })
    expect(bodies[2]).toEqual({ ...bodies[0], pageToken: fixtureJson(PAGES[1] as string).nextPageToken })
    for (const request of server.requests) {
      expect(request.method).toBe('POST')
      expect(request.path).toBe('/v1/places:searchText')
      expect(request.headers['x-goog-api-key']).toBe('test-key')
      expect(String(request.headers['x-goog-fieldmask']).split(',')).toContain('nextPageToken')
      expect(request.headers['x-goog-fieldmask']).toBe(GOOGLE_FIELD_MASK)
    }
    expect(new Set(results.map((b) => b.placeId)).size).toBe(45)
  })

  it('maps Places fields to a business', async () => {
    const server = await serve(() => ({ body: fixtureJson(PAGES[0] as string) }))
    const [first] = await collect(google(server), LYON, PLUMBER, { limit: 1 })
    const place = (fixtureJson(PAGES[0] as string).places as Record<string, any>[])[0] as Record<string, any>
    expect(first).toEqual({
      source: 'google',
      placeId: place.id,
      name: place.displayName.text,
      address: place.formattedAddress,
      fullAddressArray: (place.formattedAddress as string).split(', '),
      city: 'Lyon',
      postalCode: (place.formattedAddress as string).match(/\d{5}/)?.[0],
      countryCode: 'FR',
      latitude: place.location.latitude,
      longitude: place.location.longitude,
      businessTypes: place.types,
      website: place.websiteUri ?? null,
      phone: place.nationalPhoneNumber,
      email: [],
      rating: place.rating ?? null,
      reviewCount: place.userRatingCount ?? null,
      googleMapsUrl: place.googleMapsUri,
      openingHours: place.regularOpeningHours ?? null,
      operationalState: 'OPERATIONAL',
      socialMedia: {},
    })
  })

  it('stops at the limit without fetching further pages', async () => {
    const server = await serve(paged)
    expect(await collect(google(server), LYON, PLUMBER, { limit: 25 })).toHaveLength(25)
    expect(server.requests).toHaveLength(2)
    expect(await collect(google(server), LYON, PLUMBER, { limit: 20 })).toHaveLength(20)
    expect(server.requests).toHaveLength(3)
  })

  it('treats an empty {} answer as no results', async () => {
    const server = await serve(() => ({ body: fixtureJson('google/empty.json') }))
    expect(await collect(google(server), LYON, PLUMBER)).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('reports 429 as rate_limited with Retry-After', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'Retry-After': '12' }, body: fixtureJson('google/rate-limited.json') }))
    const error = await failure(collect(google(server), LYON, PLUMBER))
    expect(error.code).toBe('rate_limited')
    expect(error.retryAfterSeconds).toBe(12)
  })

  it("reports 400 as bad_request with the API's message, other statuses as upstream_error", async () => {
    const server = await serve((_req, i) => (i === 0 ? { status: 400, body: fixtureJson('google/invalid-key.json') } : { status: 503, body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } }))
    const bad = await failure(collect(google(server), LYON, PLUMBER))
    expect(bad.code).toBe('bad_request')
    expect(bad.message).toContain('API key not valid. Please pass a valid API key.')
    const down = await failure(collect(google(server), LYON, PLUMBER))
    expect(down.code).toBe('upstream_error')
    expect(down.message).toContain('The service is currently unavailable.')
  })

  it('stops when the caller aborts', async () => {
    const server = await serve(async (request) => ({ ...(await paged(request, 0)), delayMs: (request.json as { pageToken?: string }).pageToken ? 2_000 : 0 }))
    const controller = new AbortController()
    const seen: Business[] = []
    const run = (async () => {
      for await (const business of google(server).search(resolvedParams(LYON), PLUMBER, { signal: controller.signal })) {
        seen.push(business)
        if (seen.length === 20) setTimeout(() => controller.abort(), 20)
      }
    })()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toHaveLength(20)
  })

  it('is chosen by LEADS_SOURCE=google and requires a key', async () => {
    expect(() => getLeadSource(parseEnv({ LEADS_SOURCE: 'google' }))).toThrow(/GOOGLE_PLACES_API_KEY/)
    const server = await serve(() => ({ body: {} }))
    await collect(getLeadSource(parseEnv({ LEADS_SOURCE: 'google', GOOGLE_PLACES_API_KEY: 'k', GOOGLE_PLACES_URL: server.url })), LYON, PLUMBER)
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('k')
  })
})

describe('demo source', () => {
  const demo = createDemoSource({ websitesBaseUrl: 'http://127.0.0.1:4999' })
  const communes = (createRequire(import.meta.url)('@etalab/decoupage-administratif/data/communes.json') as { nom: string; departement: string; type: string; codesPostaux?: string[] }[])

  it('is the default source', () => {
    expect(getLeadSource(parseEnv({})).name).toBe('demo')
  })

  it('is deterministic: the same search gives the same results', async () => {
    const params = { ...FRANCE, department: 'Rhône' }
    const a = await collect(demo, params, BAKERY, { limit: 20 })
    const b = await collect(createDemoSource({ websitesBaseUrl: 'http://127.0.0.1:4999' }), params, BAKERY, { limit: 20 })
    expect(a).toHaveLength(20)
    expect(b).toEqual(a)
  })

  it('gives different results for different searches', async () => {
    const names = async (params: SearchInput, category: ResolvedCategory | null) => (await collect(demo, params, category, { limit: 20 })).map((b) => b.placeId)
    const rhone = await names({ ...FRANCE, department: 'Rhône' }, BAKERY)
    expect(await names({ ...FRANCE, department: 'Gironde' }, BAKERY)).not.toEqual(rhone)
    expect(await names({ ...FRANCE, department: 'Rhône' }, RESTAURANT)).not.toEqual(rhone)
    expect(await names({ ...FRANCE, department: 'Rhône' }, null)).not.toEqual(rhone)
  })

  it('places department results in that department, with real postcodes', async () => {
    const results = await collect(demo, { ...FRANCE, department: 'Rhône' }, BAKERY)
    const rhone = communes.filter((c) => c.departement === '69' && c.type === 'commune-actuelle')
    expect(new Set(results.map((b) => b.city)).size).toBeGreaterThan(5)
    for (const business of results) {
      const commune = rhone.find((c) => c.nom === business.city)
      expect(commune, business.city ?? '').toBeDefined()
      expect(commune?.codesPostaux).toContain(business.postalCode)
      expect(business.address).toBe(`${business.fullAddressArray[0]}, ${business.postalCode} ${business.city}`)
      expect(business.countryCode).toBe('FR')
      expect(business.latitude).toBeGreaterThan(45.4)
      expect(business.latitude).toBeLessThan(46.4)
    }
  })

  it('shows in a city search the businesses the wider search showed there', async () => {
    const department = await collect(demo, { ...FRANCE, department: 'Rhône' }, BAKERY)
    const lyon = new Set((await collect(demo, { ...FRANCE, department: 'Rhône', city: 'Lyon' }, BAKERY)).map((b) => b.placeId))
    const inLyon = department.filter((b) => b.city === 'Lyon')
    expect(inLyon.length).toBeGreaterThan(0)
    for (const business of inLyon) expect(lyon.has(business.placeId)).toBe(true)
  })

  it('generates valid French phone numbers, ratings and review counts', async () => {
    const results = [
      ...(await collect(demo, { ...FRANCE, region: 'Île-de-France' }, null)),
      ...(await collect(demo, { ...FRANCE, region: 'Occitanie' }, RESTAURANT)),
      ...(await collect(demo, { ...FRANCE, department: 'Finistère' }, BAKERY)),
      ...(await collect(demo, { ...FRANCE, department: 'Bas-Rhin' }, PLUMBER)),
    ]
    const phones = results.map((b) => b.phone).filter((p): p is string => p !== null)
    expect(phones.length).toBeGreaterThan(results.length * 0.75)
    for (const phone of phones) {
      expect(phone).toMatch(/^0[1-59]( \d\d){4}$/)
      expect(isValidPhoneNumber(phone, 'FR'), phone).toBe(true)
      expect(isValidPhoneNumberMax(phone, 'FR'), phone).toBe(true)
    }
    const rated = results.filter((b) => b.rating !== null)
    expect(rated.length).toBeLessThan(results.length)
    for (const b of rated) {
      expect(b.rating).toBeGreaterThanOrEqual(3)
      expect(b.rating).toBeLessThanOrEqual(5)
      expect(Math.round((b.rating as number) * 10) / 10).toBe(b.rating)
      expect(b.reviewCount).toBeGreaterThan(0)
    }
    for (const b of results.filter((x) => x.rating === null)) expect(b.reviewCount).toBeNull()
  })

  it('sizes results by area: from about 25 for a village to 400 for the whole country', async () => {
    const country = await collect(demo, FRANCE, null)
    expect(country).toHaveLength(400)
    const village = await collect(demo, { ...FRANCE, department: 'Ain', city: "L'Abergement-Clémenciat" }, BAKERY)
    expect(village).toHaveLength(25)
    const department = await collect(demo, { ...FRANCE, department: 'Lozère' }, BAKERY)
    expect(department.length).toBeGreaterThan(25)
    expect(department.length).toBeLessThan(country.length)
    expect(new Set(country.map((b) => b.placeId)).size).toBe(country.length)
  })

  it('links about 70% of businesses to the demo websites server, and none without it', async () => {
    const results = await collect(demo, FRANCE, null)
    const withSite = results.filter((b) => b.website)
    expect(withSite.length / results.length).toBeGreaterThan(0.6)
    expect(withSite.length / results.length).toBeLessThan(0.8)
    for (const b of withSite) expect(b.website).toMatch(/^http:\/\/127\.0\.0\.1:4999\/sites\/[a-z0-9-]+\/$/)
    const offline = await collect(createDemoSource(), FRANCE, null, { limit: 50 })
    expect(offline.every((b) => b.website === null)).toBe(true)
    expect(offline.map((b) => b.placeId)).toEqual(results.slice(0, 50).map((b) => b.placeId))
  })

  it('names businesses after their sector', async () => {
    const bakeries = await collect(demo, { ...FRANCE, city: 'Paris' }, BAKERY, { limit: 40 })
    expect(bakeries.every((b) => b.businessTypes[0] === 'Boulangerie')).toBe(true)
    expect(bakeries.some((b) => /Boulangerie|Fournil|Pain|Maison|Délices|Mie/.test(b.name))).toBe(true)
    expect(new Set(bakeries.map((b) => b.name)).size).toBe(bakeries.length)
    const free = await collect(demo, { ...FRANCE, city: 'Nantes' }, { id: 'tatoueur', label: 'tatoueur' }, { limit: 10 })
    expect(free.every((b) => b.name.includes('Tatoueur'))).toBe(true)
    // Free text naming a known sector finds the same businesses as the category.
    const typed = await collect(demo, { ...FRANCE, city: 'Paris' }, { id: 'boulangeries', label: 'boulangeries' }, { limit: 40 })
    expect(typed.map((b) => b.placeId)).toEqual(bakeries.map((b) => b.placeId))
    // A taxonomy category is matched by its exact tag only: a car wash is not named like a garage.
    const carWash = await collect(demo, { ...FRANCE, city: 'Paris' }, { id: 'amenity-car-wash', label: 'Car Wash', osm: { key: 'amenity', value: 'car_wash' } }, { limit: 10 })
    expect(carWash.some((b) => b.name.startsWith('Garage'))).toBe(false)
  })

  it('returns plausible results with fewer fields outside France', async () => {
    const results = await collect(demo, { country: 'Germany', countryCode: 'DE', city: 'Augsburg', lang: 'en' }, { ...BAKERY, label: 'Bakery' })
    expect(results.length).toBeGreaterThanOrEqual(25)
    for (const b of results) {
      expect(b).toMatchObject({ city: 'Augsburg', countryCode: 'DE', postalCode: null, phone: null, address: null })
      expect(b.businessTypes).toEqual(['Bakery'])
    }
  })

  it('honours limit and abort signals', async () => {
    expect(await collect(demo, FRANCE, BAKERY, { limit: 7 })).toHaveLength(7)
    expect(await collect(demo, FRANCE, BAKERY, { limit: 0 })).toEqual([])

    const controller = new AbortController()
    const seen: Business[] = []
    const run = (async () => {
      for await (const business of demo.search(resolvedParams(FRANCE), BAKERY, { signal: controller.signal })) {
        seen.push(business)
        if (seen.length === 3) controller.abort()
      }
    })()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toHaveLength(3)

    await expect(collect(demo, FRANCE, BAKERY, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
  })
})
