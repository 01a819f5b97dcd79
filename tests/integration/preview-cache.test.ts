// Previews are cached per normalized search (app/.server/search/preview.ts), so a repeated preview never repeats a
// paid Google Places call. The Places API is played from recorded pages on loopback and its requests are counted.
import fs from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runPreview, clearPreviewCache } from '#app/.server/search/preview.ts'
import { NO_FILTERS } from '#app/domain/search-filters.ts'
import { type FixtureHandler, type FixtureServer, startFixtureServer } from '#tests/support/fixture-server.ts'

const PAGE = JSON.parse(fs.readFileSync(new URL('../fixtures/google/plumbers-lyon-page1.json', import.meta.url), 'utf8')) as object
const LYON = { sector: 'craft-plumber', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
const VARIABLES = ['LEADS_SOURCE', 'GOOGLE_PLACES_API_KEY', 'GOOGLE_PLACES_URL', 'PREVIEW_CACHE_SECONDS'] as const
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]))

let google: FixtureServer
async function useGoogle(handler: FixtureHandler = () => ({ body: PAGE })) {
  google = await startFixtureServer(handler)
  Object.assign(process.env, { LEADS_SOURCE: 'google', GOOGLE_PLACES_API_KEY: 'test-key', GOOGLE_PLACES_URL: google.url })
}

beforeEach(() => clearPreviewCache())
afterEach(async () => {
  await google?.stop()
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  clearPreviewCache()
})

const preview = (criteria = LYON, options: Partial<Parameters<typeof runPreview>[1]> = {}) => runPreview(criteria, { lang: 'fr', plan: 'premium', ...options })

describe('preview cache', () => {
  it('answers a repeated preview without calling Google again, with the same results and count', async () => {
    await useGoogle()
    const first = await preview()
    expect(first.ok).toBe(true)
    expect(google.requests).toHaveLength(1)
    const again = await preview()
    expect(again).toEqual(first)
    // The same search typed with stray spaces, or with the category's name instead of its id, is the same search.
    expect(await preview({ ...LYON, city: ' Lyon ', sector: 'Plombier' })).toEqual(first)
    expect(google.requests).toHaveLength(1)
  })

  it('calls Google again for a different filter, location or language, then caches that one too', async () => {
    await useGoogle()
    await preview()
    await preview(LYON, { filters: { ...NO_FILTERS, hasWebsite: true } })
    expect(google.requests).toHaveLength(2)
    await preview(LYON, { filters: { ...NO_FILTERS, hasWebsite: true } })
    expect(google.requests).toHaveLength(2)
    await preview(LYON, { filters: { ...NO_FILTERS, minRating: 4 } })
    await preview({ ...LYON, city: 'Villeurbanne' })
    await preview(LYON, { lang: 'en' })
    expect(google.requests).toHaveLength(5)
  })

  it('shares one Google call between identical previews running at the same time', async () => {
    await useGoogle(() => ({ body: PAGE, delayMs: 150 }))
    const [a, b] = await Promise.all([preview(), preview()])
    expect(a).toEqual(b)
    expect(google.requests).toHaveLength(1)
  })

  it('checks the plan before the cache', async () => {
    await useGoogle()
    const regionOnly = { ...LYON, department: '', city: '' }
    expect((await preview(regionOnly)).ok).toBe(true)
    // The free trial needs a department: a search cached for a premium user is still refused to it.
    const refused = await preview(regionOnly, { plan: 'free_trial' })
    expect(refused).toMatchObject({ ok: false, status: 403, error: 'plan' })
    expect(google.requests).toHaveLength(1)
  })

  it('does not cache failures', async () => {
    await useGoogle((_request, index) => (index === 0 ? { status: 503, body: { error: { code: 503, message: 'Backend Error', status: 'UNAVAILABLE' } } } : { body: PAGE }))
    expect((await preview()).ok).toBe(false)
    expect((await preview()).ok).toBe(true)
    expect(google.requests).toHaveLength(2)
  })

  it('keeps previews PREVIEW_CACHE_SECONDS, and not at all with 0', async () => {
    await useGoogle()
    process.env.PREVIEW_CACHE_SECONDS = '1'
    await preview()
    await preview()
    expect(google.requests).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    await preview()
    expect(google.requests).toHaveLength(2)

    process.env.PREVIEW_CACHE_SECONDS = '0'
    await preview({ ...LYON, city: 'Bron' })
    await preview({ ...LYON, city: 'Bron' })
    expect(google.requests).toHaveLength(4)
  })
})
