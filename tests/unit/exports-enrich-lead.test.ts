// The outcome rules of one lead's tasks (app/.server/exports/enrichers.ts), with scripted enrichers.
import { describe, expect, it, vi } from 'vitest'
import { enrichLead, storable, type Enrichers, type LeadForEnrichment, type TaskType, type WebsiteFindings } from '#app/.server/exports/enrichers.ts'
import { routeRegistryRequest } from '#server/demo/registry.ts'

const OK: WebsiteFindings = {
  status: 'ok',
  finalUrl: 'https://boulangerie.example/',
  emails: ['Contact@Boulangerie.example'],
  emailPages: { 'Contact@Boulangerie.example': 'https://boulangerie.example/contact' },
  socialMedia: { facebook: 'https://www.facebook.com/boulangerie', instagram: undefined },
  technologies: { CMS: 'WordPress', 'JavaScript libraries': ['jQuery'], Empty: [] },
  phones: ['04 78 00 00 00'],
  siret: '73282932000074',
}

function fake(overrides: Partial<Enrichers> = {}): Enrichers & { crawl: ReturnType<typeof vi.fn>; lookupRegistry: ReturnType<typeof vi.fn> } {
  return {
    crawl: vi.fn(async () => OK),
    lookupRegistry: vi.fn(async () => ({ status: 'success' as const, info: { results: [{ siren: '732829320' }], confidence: 0.9 } })),
    normalizePhone: (raw: string) => (/^0\d( ?\d\d){4}$/.test(raw.trim()) ? `+33 ${raw.trim().slice(1)}` : raw.startsWith('+') ? raw : null),
    ...overrides,
  } as never
}

const lead: LeadForEnrichment = {
  name: 'Boulangerie Martin',
  phone: null,
  website: 'https://boulangerie.example',
  city: 'Lyon',
  postalCode: '69001',
  countryCode: 'FR',
  sourceEmails: [],
  sourceSocialMedia: {},
}
const ALL = new Set<TaskType>(['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'])

describe('enrichLead', () => {
  it('one crawl feeds website, email, social, technologies, the phone fallback and the SIRET', async () => {
    const enrichers = fake()
    const result = await enrichLead(lead, ALL, { enrichers, exportCountryCode: 'FR', nafCodes: ['10.71C'] })
    expect(enrichers.crawl).toHaveBeenCalledTimes(1)
    expect(result.outcomes).toEqual({ website: 'success', email: 'success', social_media: 'success', technologies: 'success', phone: 'success', admin_fr_info: 'success' })
    expect(result.values).toEqual({
      website: 'https://boulangerie.example/',
      email: ['contact@boulangerie.example'],
      email_sources: { 'contact@boulangerie.example': { page: 'https://boulangerie.example/contact', found_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) } },
      social_media: { facebook: 'https://www.facebook.com/boulangerie' },
      technologies: { CMS: 'WordPress', 'JavaScript libraries': 'jQuery' },
      phone: '+33 4 78 00 00 00',
      phone_sources: { '+33 4 78 00 00 00': { type: 'landline', page: null, rank: 0 } },
      admin_fr_info: { results: [{ siren: '732829320' }], confidence: 0.9 },
    })
    expect(enrichers.lookupRegistry).toHaveBeenCalledWith(
      { name: 'Boulangerie Martin', postalCode: '69001', city: 'Lyon', siret: '73282932000074', siren: undefined, nafCodes: ['10.71C'] },
      expect.anything(),
    )
  })

  it('an email the lead source listed has no page, one the site printed has the page it was on', async () => {
    const result = await enrichLead({ ...lead, sourceEmails: ['listed@boulangerie.example'] }, new Set(['email']), { enrichers: fake(), exportCountryCode: 'FR' })
    expect(result.values.email).toEqual(['listed@boulangerie.example', 'contact@boulangerie.example'])
    expect(result.values.email_sources).toMatchObject({
      'listed@boulangerie.example': { page: null },
      'contact@boulangerie.example': { page: 'https://boulangerie.example/contact' },
    })
  })

  it('runs only the pending tasks, and crawls only when one needs the site', async () => {
    const enrichers = fake()
    // The phone task crawls even with the source's number: that one stays the main number, the site's come after.
    const phoneOnly = await enrichLead({ ...lead, phone: '04 72 11 22 33' }, new Set(['phone']), { enrichers, exportCountryCode: 'FR' })
    expect(phoneOnly.outcomes).toEqual({ phone: 'success' })
    expect(phoneOnly.values.phone).toBe('+33 4 72 11 22 33')
    expect(Object.entries(phoneOnly.values.phone_sources ?? {})).toEqual([
      ['+33 4 72 11 22 33', { type: 'landline', page: null, rank: 0 }],
      ['+33 4 78 00 00 00', { type: 'landline', page: null, rank: 1 }],
    ])
    expect(enrichers.crawl).toHaveBeenCalledTimes(1)
    // admin_fr_info alone still crawls (the SIRET makes the match reliable); social alone with no site does not.
    await enrichLead(lead, new Set(['admin_fr_info']), { enrichers, exportCountryCode: 'FR' })
    expect(enrichers.crawl).toHaveBeenCalledTimes(2)
  })

  it('without a website: not_found, except what the source gave', async () => {
    const enrichers = fake()
    const result = await enrichLead(
      { ...lead, website: null, sourceEmails: ['info@x.fr'], sourceSocialMedia: { linkedin: 'https://linkedin.com/company/x' } },
      ALL,
      { enrichers, exportCountryCode: 'FR' },
    )
    expect(enrichers.crawl).not.toHaveBeenCalled()
    expect(result.outcomes).toMatchObject({ website: 'not_found', technologies: 'not_found', phone: 'not_found', email: 'success', social_media: 'success' })
  })

  it('a failed crawl is failed (free) where nothing else answered', async () => {
    const enrichers = fake({ crawl: vi.fn(async () => ({ ...OK, status: 'failed' as const, emails: [], error: 'timeout' })) })
    const result = await enrichLead({ ...lead, phone: '04 72 11 22 33' }, ALL, { enrichers, exportCountryCode: 'FR' })
    expect(result.outcomes).toMatchObject({ website: 'failed', email: 'failed', technologies: 'failed', social_media: 'failed', phone: 'success' })
    // Findings of a failed crawl are never used.
    expect(result.values.email).toBeUndefined()
    const thrown = await enrichLead(lead, new Set(['email']), { enrichers: fake({ crawl: vi.fn(async () => Promise.reject(new Error('boom'))) }), exportCountryCode: 'FR' })
    expect(thrown.outcomes).toEqual({ email: 'failed' })
  })

  it('a site that is not there is not_found', async () => {
    const enrichers = fake({ crawl: vi.fn(async () => ({ ...OK, status: 'not_found' as const, error: 'http_404' })) })
    expect((await enrichLead(lead, new Set<TaskType>(['website', 'email']), { enrichers, exportCountryCode: 'FR' })).outcomes).toEqual({ website: 'not_found', email: 'not_found' })
  })

  it('the registry only for French leads with a name', async () => {
    const enrichers = fake()
    const foreign = await enrichLead({ ...lead, countryCode: 'DE' }, new Set(['admin_fr_info']), { enrichers, exportCountryCode: 'FR' })
    expect(foreign.outcomes).toEqual({ admin_fr_info: 'not_found' })
    const unnamed = await enrichLead({ ...lead, name: 'Unnamed Business' }, new Set(['admin_fr_info']), { enrichers, exportCountryCode: 'FR' })
    expect(enrichers.lookupRegistry).not.toHaveBeenCalled()
    // No name to match, but the site prints its SIRET: that much is delivered.
    expect(unnamed.outcomes).toEqual({ admin_fr_info: 'success' })
    expect(unnamed.values.admin_fr_info).toMatchObject({ matched_by: 'site', results: [{ siren: '732829320', siret: '73282932000074' }] })
    const unnamedNoSite = await enrichLead({ ...lead, name: 'Unnamed Business' }, new Set(['admin_fr_info']), { enrichers: fake({ crawl: vi.fn(async () => ({ ...OK, siret: null })) }), exportCountryCode: 'FR' })
    expect(unnamedNoSite.outcomes).toEqual({ admin_fr_info: 'not_found' })
    // The export's country stands in for a lead without one.
    const inherited = await enrichLead({ ...lead, countryCode: null }, new Set(['admin_fr_info']), { enrichers, exportCountryCode: 'FR' })
    expect(inherited.outcomes).toEqual({ admin_fr_info: 'success' })
    const failing = fake({ lookupRegistry: vi.fn(async () => ({ status: 'failed' as const, error: 'rate_limited' })) })
    expect((await enrichLead(lead, new Set(['admin_fr_info']), { enrichers: failing, exportCountryCode: 'FR' })).outcomes).toEqual({ admin_fr_info: 'failed' })
  })

  it('a SIRET/SIREN printed on the site is delivered with its page, even when the registry knows no such company', async () => {
    const page = 'https://boulangerie.example/mentions-legales'
    const printed = { ...OK, companyIdsPage: page }
    const task = new Set<TaskType>(['admin_fr_info'])
    const unknown = fake({ crawl: vi.fn(async () => printed), lookupRegistry: vi.fn(async () => ({ status: 'not_found' as const })) })
    const alone = await enrichLead(lead, task, { enrichers: unknown, exportCountryCode: 'FR' })
    expect(alone.outcomes).toEqual({ admin_fr_info: 'success' })
    expect(alone.values.admin_fr_info).toEqual({ results: [{ siren: '732829320', siret: '73282932000074' }], confidence: null, matched_by: 'site', id_source_page: page })
    // A SIREN alone (an RCS mention) is delivered too.
    const rcs = fake({ crawl: vi.fn(async () => ({ ...printed, siret: null, siren: '732829320' })), lookupRegistry: vi.fn(async () => ({ status: 'not_found' as const })) })
    expect((await enrichLead(lead, task, { enrichers: rcs, exportCountryCode: 'FR' })).values.admin_fr_info).toMatchObject({ results: [{ siren: '732829320', siret: null }], matched_by: 'site' })
    // A registry that failed may answer later: failed (free, retried), not the site's identifiers.
    const down = fake({ crawl: vi.fn(async () => printed), lookupRegistry: vi.fn(async () => ({ status: 'failed' as const, error: 'http_503' })) })
    expect((await enrichLead(lead, task, { enrichers: down, exportCountryCode: 'FR' })).outcomes).toEqual({ admin_fr_info: 'failed' })
    // A match on the printed SIRET names its page; a match by name and postcode does not rest on it.
    const bySiret = fake({ crawl: vi.fn(async () => printed), lookupRegistry: vi.fn(async () => ({ status: 'success' as const, info: { results: [{ siren: '732829320' }], confidence: 1, matched_by: 'siret' } })) })
    expect((await enrichLead(lead, task, { enrichers: bySiret, exportCountryCode: 'FR' })).values.admin_fr_info).toMatchObject({ matched_by: 'siret', id_source_page: page })
    const byName = fake({ crawl: vi.fn(async () => printed), lookupRegistry: vi.fn(async () => ({ status: 'success' as const, info: { results: [{ siren: '552100554' }], confidence: 0.95, matched_by: 'name_postcode' } })) })
    expect((await enrichLead(lead, task, { enrichers: byName, exportCountryCode: 'FR' })).values.admin_fr_info).not.toHaveProperty('id_source_page')
    // Never for a lead outside France.
    expect((await enrichLead({ ...lead, countryCode: 'DE' }, task, { enrichers: unknown, exportCountryCode: 'FR' })).outcomes).toEqual({ admin_fr_info: 'not_found' })
  })

  it('a company the do-not-contact list names (the site\'s SIRET, or the registry match) gives nothing at all, the source\'s phone included', async () => {
    const withPhone = { ...lead, phone: '04 78 11 11 11', sourceEmails: ['jean@boulangerie.example'] }
    const listedSite = fake({ crawl: vi.fn(async () => ({ ...OK, status: 'not_found' as const, listed: true })) })
    const bySite = await enrichLead(withPhone, ALL, { enrichers: listedSite, exportCountryCode: 'FR' })
    expect(bySite.outcomes).toEqual({ phone: 'not_found', website: 'not_found', email: 'not_found', technologies: 'not_found', social_media: 'not_found', admin_fr_info: 'not_found' })
    expect(bySite.values).toEqual({})
    // Known from the site already: the registry is not asked.
    expect(listedSite.lookupRegistry).not.toHaveBeenCalled()

    const listedMatch = fake({ lookupRegistry: vi.fn(async () => ({ status: 'not_found' as const, listed: true })) })
    const byRegistry = await enrichLead(withPhone, new Set<TaskType>(['phone', 'website', 'admin_fr_info']), { enrichers: listedMatch, exportCountryCode: 'FR' })
    expect(byRegistry).toEqual({ outcomes: { phone: 'not_found', website: 'not_found', admin_fr_info: 'not_found' }, values: {}, crawled: true, listed: true })
  })

  it('an abort rejects: nothing of the lead is reported', async () => {
    const controller = new AbortController()
    const enrichers = fake({
      crawl: vi.fn(async () => {
        controller.abort()
        throw new DOMException('aborted', 'AbortError')
      }),
    })
    await expect(enrichLead(lead, ALL, { enrichers, signal: controller.signal, exportCountryCode: 'FR' })).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('storable', () => {
  it('drops NULs and replaces lone surrogates in strings and keys, deeply; other values unchanged', () => {
    expect(storable({ 'a\u0000b': ['x\u0000', '\ud800y', 1, null, true], n: 2, nested: { s: 'ok\udfff' } })).toEqual({
      ab: ['x', '\ufffdy', 1, null, true],
      n: 2,
      nested: { s: 'ok\ufffd' },
    })
    expect(storable('😀 fine')).toBe('😀 fine')
    const date = new Date(0)
    expect(storable({ date }).date).toBe(date)
  })
})

describe('demo registry', () => {
  it('answers the recherche-entreprises shape with deterministic, labelled demo companies', () => {
    const reply = routeRegistryRequest('GET', '/search?q=Boulangerie%20Martin&code_postal=69001&per_page=5')
    expect(reply.status).toBe(200)
    const body = reply.body as { demo: boolean; results: Array<Record<string, any>>; total_results: number }
    expect(body.demo).toBe(true)
    expect(routeRegistryRequest('GET', '/search?q=Boulangerie%20Martin&code_postal=69001&per_page=5')).toEqual(reply)
    const [company] = body.results
    expect(company).toMatchObject({ demo: true, etat_administratif: 'A', siege: { code_postal: '69001', est_siege: true } })
    expect(company?.nom_complet).toMatch(/^BOULANGERIE MARTIN/)
    expect(company?.siren).toMatch(/^\d{9}$/)
    expect(company?.siege.siret.slice(0, 9)).toBe(company?.siren)
  })

  it('looks up a SIRET, refuses short queries and unknown paths, and misses about one name in ten', () => {
    const bySiret = routeRegistryRequest('GET', '/search?q=73282932000074').body as { results: Array<Record<string, any>> }
    expect(bySiret.results[0]).toMatchObject({ siren: '732829320', siege: { siret: '73282932000074' } })
    expect(routeRegistryRequest('GET', '/search?q=ab').status).toBe(400)
    expect(routeRegistryRequest('GET', '/other').status).toBe(404)
    expect(routeRegistryRequest('POST', '/search?q=abc').status).toBe(405)
    let misses = 0
    for (let i = 0; i < 500; i++) if ((routeRegistryRequest('GET', `/search?q=Commerce%20${i}&code_postal=75001`).body as { results: unknown[] }).results.length === 0) misses++
    expect(misses).toBeGreaterThan(20)
    expect(misses).toBeLessThan(90)
  })
})
