import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { createRegistryClient } from '#app/.server/enrichment/index.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type FixtureHandler, type FixtureResponse, type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'

const FIXTURES = path.resolve('tests/fixtures/registry')
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as object

let server: FixtureServer | undefined

// The registry budget is counted in the app's database (app/.server/registry/limiter.ts).
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
})

async function serve(handler: FixtureHandler): Promise<FixtureServer> {
  server = await startFixtureServer(handler)
  return server
}

afterEach(async () => {
  await server?.stop()
  server = undefined
})

function query(request: { path: string }): URLSearchParams {
  return new URL(request.path, 'http://x').searchParams
}

/** Answers like the live API from the recorded files. */
const recorded = (request: { path: string }, _index?: number): FixtureResponse => {
  const params = query(request)
  const q = params.get('q') ?? ''
  if (q === '44190275600028' || q === '441902756') return { body: fixture('search-siret-44190275600028.json') }
  if (q === '90345678800012') return { body: fixture('search-siret-90345678800012-diffusion-partielle.json') }
  if (/^boulangerie martin$/i.test(q) && params.get('code_postal') === '29200') return { body: fixture('search-boulangerie-martin-29200.json') }
  if (params.get('code_postal') === '29000') return { body: fixture('search-other-bakeries-29000.json') }
  return { body: fixture('search-empty.json') }
}

describe('French registry client', () => {
  it('matches by name + postcode with a confidence, and maps the result', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })
    expect(result.status).toBe('success')
    if (result.status !== 'success') return
    expect(result.info.matched_by).toBe('name_postcode')
    expect(result.info.confidence).toBe(1)
    // Look-alikes ("BOULANGERIE DU PORT", "MARTIN PERE ET FILS") stay below the threshold.
    expect(result.info.results).toHaveLength(1)
    expect(result.info.results[0]).toEqual({
      siren: '812345676',
      siret: '81234567600017',
      nom_complet: 'BOULANGERIE MARTIN',
      nom_raison_sociale: 'BOULANGERIE MARTIN',
      activite_principale: '10.71C',
      nature_juridique: '5499',
      categorie_entreprise: 'PME',
      tranche_effectif_salarie: '03',
      date_creation: '2015-06-01',
      etat_administratif: 'A',
      statut_diffusion: null,
      adresse: '12 RUE DE SIAM 29200 BREST',
      siege_adresse: '12 RUE DE SIAM 29200 BREST',
      code_postal: '29200',
      commune: 'BREST',
      dirigeants: [
        { nom: 'MARTIN', prenoms: 'JEAN LOUIS', qualite: 'Gérant' },
        { denomination: 'CABINET AUDIT OUEST', qualite: 'Commissaire aux comptes titulaire' },
      ],
      finances: { '2022': { ca: 412800, resultat_net: 23150 }, '2021': { ca: 398200, resultat_net: 18700 } },
      confidence: 1,
    })
    expect(api.requests).toHaveLength(1)
    const params = query(api.requests[0] as { path: string })
    expect(api.requests[0]?.path.startsWith('/search?')).toBe(true)
    expect(Object.fromEntries(params)).toEqual({ q: 'Boulangerie Martin', code_postal: '29200', per_page: '5' })
  })

  it('gives a partial-name match a lower but passing confidence', async () => {
    const api = await serve((request) => (query(request).get('q') === 'Martin' ? { body: fixture('search-boulangerie-martin-29200.json') } : { body: fixture('search-empty.json') }))
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Martin', postalCode: '29200', city: 'Brest' })
    expect(result.status).toBe('success')
    if (result.status !== 'success') return
    expect(result.info.confidence).toBeGreaterThanOrEqual(0.5)
    expect(result.info.confidence).toBeLessThan(1)
    expect(result.info.results[0]?.siren).toMatch(/^(812345676|523187649)$/)
  })

  it('looks a known SIRET up directly (filters ignored) and trusts it over the name', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Le Fournil de Jérôme', postalCode: '29000', city: 'Quimper', siret: '441 902 756 00028' })
    expect(result.status).toBe('success')
    if (result.status !== 'success') return
    expect(result.info.matched_by).toBe('siret')
    expect(result.info.confidence).toBe(1)
    expect(result.info.results[0]).toMatchObject({ siren: '441902756', siret: '44190275600028', code_postal: '29000', commune: 'QUIMPER', activite_principale: '10.71C' })
    expect(Object.fromEntries(query(api.requests[0] as { path: string }))).toEqual({ q: '44190275600028', per_page: '5' })
  })

  it('keeps no personal data of a sole trader under diffusion partielle (recorded response)', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: "L'Atelier de Claire", postalCode: '29200', city: 'Brest', siret: '90345678800012' })
    expect(result.status).toBe('success')
    if (result.status !== 'success') return
    expect(result.info.matched_by).toBe('siret')
    const [match] = result.info.results
    expect(match).toMatchObject({
      siren: '903456788',
      siret: '90345678800012',
      statut_diffusion: 'P',
      nom_complet: null,
      nom_raison_sociale: null,
      adresse: null,
      siege_adresse: null,
      dirigeants: [],
      code_postal: '29200',
      commune: 'BREST',
    })
    const stored = JSON.stringify(result.info)
    for (const personal of ['LE GALL', 'CLAIRE', 'NON-DIFFUSIBLE']) expect(stored).not.toContain(personal)
  })

  it("narrows the name search to the category's NAF codes, then searches without them after a miss", async () => {
    const api = await serve((request) => (query(request).has('activite_principale') ? { body: fixture('search-empty.json') } : recorded(request)))
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest', nafCodes: ['10.71C', '47.24Z'] })
    expect(result.status).toBe('success')
    expect(api.requests.map((r) => query(r).get('activite_principale'))).toEqual(['10.71C,47.24Z', null])
  })

  it('gets consistent answers from the demo registry: the category, the city, and a name match below certainty', async () => {
    let demo: DemoRegistry | undefined
    try {
      demo = await startDemoRegistry({ port: 0 })
      const client = createRegistryClient({ baseUrl: demo.url })
      const names = ['Boulangerie Le Goff', 'Salon Coiffure Léa', 'Cabinet Dentaire Morel', 'Au Bon Pain', 'Fournil du Port', 'Coiffure Élégance']
      const found = []
      for (const name of names) {
        const result = await client.lookup({ name, postalCode: '29200', city: 'Brest', nafCodes: ['96.02A'] })
        if (result.status === 'success') found.push(result.info)
      }
      expect(found.length).toBeGreaterThanOrEqual(3)
      for (const info of found) {
        expect(info.confidence).toBeGreaterThanOrEqual(0.5)
        expect(info.confidence).toBeLessThan(1)
        expect(info.results[0]).toMatchObject({ activite_principale: '96.02A', commune: 'BREST', code_postal: '29200' })
        expect(info.results[0]?.siege_adresse).toMatch(/ 29200 BREST$/)
      }
    } finally {
      await demo?.stop()
    }
  })

  it('looks a SIREN (e.g. from an RCS mention) up and picks the establishment by postcode', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Le Fournil de Jérôme', postalCode: '29000', city: 'Quimper', siren: '441 902 756' })
    expect(result).toMatchObject({ status: 'success', info: { matched_by: 'siren', confidence: 1, results: [{ siret: '44190275600028', commune: 'QUIMPER' }] } })
    expect(Object.fromEntries(query(api.requests[0] as { path: string }))).toEqual({ q: '441902756', per_page: '5' })
  })

  it('falls back to the name search when the SIRET is unknown to the registry, and ignores invalid ones', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    const result = await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest', siret: '44190275600010' })
    expect(result).toMatchObject({ status: 'success', info: { matched_by: 'name_postcode', results: [{ siren: '812345676' }] } })
    expect(api.requests.map((r) => query(r).get('q'))).toEqual(['44190275600010', 'Boulangerie Martin'])
    await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest', siret: '12345678901234' })
    expect(api.requests.map((r) => query(r).get('q'))).toEqual(['44190275600010', 'Boulangerie Martin', 'Boulangerie Martin'])
  })

  it('is not_found for empty results, weak matches and unusable names', async () => {
    const api = await serve(recorded)
    const client = createRegistryClient({ baseUrl: api.url })
    expect(await client.lookup({ name: 'Boulangerie Inconnue', postalCode: '75001', city: 'Paris' })).toEqual({ status: 'not_found' })
    // Other bakeries in the same postcode: same activity word, different name → below 0.5.
    expect(await client.lookup({ name: 'Boulangerie Martin', postalCode: '29000', city: 'Quimper' })).toEqual({ status: 'not_found' })
    expect(await client.lookup({ name: ' ?! ', postalCode: '29000', city: 'Quimper' })).toEqual({ status: 'not_found' })
    expect(api.requests).toHaveLength(2)
  })

  it('waits Retry-After on 429 and retries', async () => {
    const api = await serve((request, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': '1' }, body: { erreur: 'Trop de requêtes' } } : recorded(request, index)))
    const client = createRegistryClient({ baseUrl: api.url })
    const start = performance.now()
    const result = await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })
    const elapsed = performance.now() - start
    expect(result.status).toBe('success')
    expect(api.requests).toHaveLength(2)
    expect(elapsed).toBeGreaterThanOrEqual(950)
    expect(elapsed).toBeLessThan(5_000)
  })

  it('accepts Retry-After as an HTTP date, and gives up with retryAfterSeconds when asked to wait too long', async () => {
    const api = await serve((request, index) => {
      if (query(request).get('q') === 'Long Wait') return { status: 429, headers: { 'Retry-After': '3600' } }
      return index === 0 ? { status: 429, headers: { 'Retry-After': new Date(Date.now() + 1_000).toUTCString() } } : recorded(request, index)
    })
    const client = createRegistryClient({ baseUrl: api.url, maxRetryAfterSeconds: 30 })
    expect((await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })).status).toBe('success')
    expect(await client.lookup({ name: 'Long Wait', postalCode: '29200', city: 'Brest' })).toEqual({ status: 'failed', error: 'rate_limited', retryAfterSeconds: 3600 })
  })

  it('never exceeds the rate limit, shared by all lookups of the client', async () => {
    const api = await serve(recorded)
    // Send times, as the client hands requests to fetch (what the limiter controls; the server sees them after jitter).
    const times: number[] = []
    const timedFetch: typeof fetch = (input, init) => {
      times.push(performance.now())
      return fetch(input, init)
    }
    const client = createRegistryClient({ baseUrl: api.url, requestsPerSecond: 7, fetch: timedFetch })
    const n = 21
    const start = performance.now()
    const results = await Promise.all(Array.from({ length: n }, () => client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })))
    const elapsed = performance.now() - start
    expect(results.every((r) => r.status === 'success')).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(((n - 7) / 7) * 1000 - 50)
    // Any 8 consecutive requests span at least one second (7 per second at most).
    expect(times).toHaveLength(n)
    expect(api.requests).toHaveLength(n)
    for (let i = 0; i + 7 < times.length; i++) expect((times[i + 7] as number) - (times[i] as number)).toBeGreaterThanOrEqual(990)
  })

  it('retries 5xx with backoff, then fails', async () => {
    const api = await serve(() => ({ status: 500, body: { erreur: 'Erreur interne' } }))
    const client = createRegistryClient({ baseUrl: api.url, retryBaseDelayMs: 20, maxRetries: 3 })
    expect(await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })).toEqual({ status: 'failed', error: 'http_500' })
    expect(api.requests).toHaveLength(4)
  })

  it('recovers when a 502 is followed by a success', async () => {
    const api = await serve((request, index) => (index < 2 ? { status: 502, body: 'bad gateway' } : recorded(request, index)))
    const client = createRegistryClient({ baseUrl: api.url, retryBaseDelayMs: 20 })
    expect((await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })).status).toBe('success')
    expect(api.requests).toHaveLength(3)
  })

  it('reports network failures and invalid answers as failed, and honours abort', async () => {
    const api = await serve((request) => (query(request).get('q') === 'Broken' ? { status: 200, body: 'not json' } : { status: 200, body: recorded(request, 0).body as object, delayMs: 2_000 }))
    const client = createRegistryClient({ baseUrl: api.url, timeoutMs: 200, retryBaseDelayMs: 10, maxRetries: 1 })
    expect(await client.lookup({ name: 'Broken', postalCode: '29200', city: 'Brest' })).toEqual({ status: 'failed', error: 'invalid_response' })
    expect(await client.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })).toEqual({ status: 'failed', error: 'timeout' })
    const refused = createRegistryClient({ baseUrl: 'http://127.0.0.1:9', retryBaseDelayMs: 10, maxRetries: 1 })
    expect(await refused.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' })).toEqual({ status: 'failed', error: 'network_error' })
    const slow = createRegistryClient({ baseUrl: api.url })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('stop now')), 100)
    await expect(slow.lookup({ name: 'Boulangerie Martin', postalCode: '29200', city: 'Brest' }, { signal: controller.signal })).rejects.toThrow('stop now')
  })
})
