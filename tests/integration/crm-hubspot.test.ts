// The HubSpot adapter against the local fake HubSpot (tests/support/crm-fakes/hubspot.ts) through the real CRM HTTP
// client: dedupe across pushes and key changes, the mapping modes, multi-status and whole-batch refusals, 429 and
// 5xx, refused credentials, idempotent properties, contacts and their associations, opt-outs.
import { describe, expect, it } from 'vitest'
import { createCrmHttp, CrmAuthError } from '#app/.server/integrations/crm-http.ts'
import { hubspot } from '#app/.server/integrations/providers/hubspot.ts'
import type { CrmAdapter } from '#app/.server/integrations/providers/types.ts'
import type { ApiLead } from '#app/domain/api-lead.ts'
import { DEFAULT_CRM_MAPPING, toCrmRecord, type CrmMapping, type CrmRecord, type CrmRowResult } from '#app/domain/crm.ts'
import { startFakeHubspot, type FakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'

const TOKEN = 'pat-eu1-11111111-2222-3333-4444-555555555555'
const UPSERT = '/crm/objects/2026-03/companies/batch/upsert'
type Enrichments = ApiLead['enrichments']

function lead(index: number, overrides: Partial<ApiLead> = {}, enrichments: Partial<Enrichments> = {}): ApiLead {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    position: index,
    name: `Boulangerie ${index}`,
    full_address: `${index} rue de la Paix, 75002 Paris`,
    city: 'Paris',
    postal_code: '75002',
    country_code: 'FR',
    phone: '+33 1 23 45 67 89',
    phone_e164: '+33123456789',
    website: `https://boulangerie-${index}.fr`,
    latitude: 48.8686,
    longitude: 2.3314,
    rating: 4.5,
    review_count: 128,
    business_types: ['bakery'],
    google_maps_url: null,
    working_hours: 'Mon-Sat 07:00-19:30',
    operational_state: 'OPERATIONAL',
    description: null,
    source: 'osm',
    source_id: `node/${index}`,
    source_url: `https://www.openstreetmap.org/node/${index}`,
    enrichments: { phone: null, website: null, email: null, technologies: null, social: null, admin_fr_info: null, ...enrichments },
    ...overrides,
  }
}

function emails(...addresses: string[]): Enrichments['email'] {
  const quality = { status: 'valid' as const, reason: null, role: false, webmail: false, checked_at: null }
  return { status: 'success', reused_at: null, email: addresses.map((address) => ({ address, quality, source: { page: 'https://example.fr/contact', found_at: null } })) }
}

function registry(siret: string): Enrichments['admin_fr_info'] {
  return {
    status: 'success',
    reused_at: null,
    siren: siret.slice(0, 9),
    siret,
    legal_name: null,
    naf_code: '10.71C',
    legal_category: null,
    headcount_band: null,
    creation_date: null,
    match_confidence: null,
    naf_label: null,
    legal_form: null,
    headcount: null,
    administrative_state: null,
    head_office_address: null,
    directors: null,
    matched_by: null,
    id_source_page: null,
    risk: null,
    risk_date: null,
    risk_tribunal: null,
    risk_announcement: null,
    administrative_state_code: null,
    matched_by_code: null,
    risk_code: null,
    source: null,
  }
}

function adapterFor(fake: FakeHubspot, secret = TOKEN): CrmAdapter {
  return hubspot.create({
    secret,
    baseUrl: fake.url,
    http: (headers) => createCrmHttp({ baseUrl: fake.url, headers, limitKey: 'test', budgets: hubspot.budgets, account: 'w1', limits: null, retryBaseDelayMs: 10 }),
  })
}

/** A fresh fake and a prepared adapter for each test. */
async function withHubspot(run: (fake: FakeHubspot, adapter: CrmAdapter) => Promise<void>, options: { prepare?: boolean } = {}): Promise<void> {
  const fake = await startFakeHubspot({ token: TOKEN })
  try {
    const adapter = adapterFor(fake)
    if (options.prepare !== false) await adapter.prepare({})
    await run(fake, adapter)
  } finally {
    await fake.close()
  }
}

/** As the push job does: the records in batches of the adapter's size. */
async function push(adapter: CrmAdapter, records: CrmRecord[], mapping: CrmMapping = DEFAULT_CRM_MAPPING): Promise<CrmRowResult[]> {
  const results: CrmRowResult[] = []
  for (let start = 0; start < records.length; start += adapter.batchSize) {
    results.push(...(await adapter.upsert(records.slice(start, start + adapter.batchSize), mapping, { hubspotPropertiesReady: true })))
  }
  return results
}

const outcomes = (results: CrmRowResult[]) => results.map((result) => result.outcome)
const count = (results: CrmRowResult[], outcome: CrmRowResult['outcome']) => results.filter((result) => result.outcome === outcome).length
const company = (fake: FakeHubspot, id: string | null) => fake.companies.get(id ?? '')!.properties
const calls = (fake: FakeHubspot, path: string) => fake.log.filter((entry) => entry.path === path).length

describe('HubSpot adapter', () => {
  it('checks the shape of a pasted token', () => {
    expect(hubspot.checkSecret(`  ${TOKEN}  `)).toBeNull()
    expect(hubspot.checkSecret('short')).toBe('invalid_secret')
    expect(hubspot.checkSecret('pat-eu1 with-space-inside')).toBe('invalid_secret')
    expect(hubspot.checkSecret('x'.repeat(513))).toBe('invalid_secret')
  })

  it('pushes the same 150 records twice: 150 companies, and the second push creates none', () =>
    withHubspot(async (fake, adapter) => {
      const records = Array.from({ length: 150 }, (_, index) => toCrmRecord(lead(index, {}, index % 3 ? {} : { email: emails(`contact@boulangerie-${index}.fr`) })))
      const first = await push(adapter, records)
      expect(count(first, 'created')).toBe(150)
      expect(new Set(first.map((result) => result.remoteId)).size).toBe(150)
      expect(fake.companies.size).toBe(150)
      expect(company(fake, first[7]!.remoteId)).toMatchObject({ leadatlas_key: 'domain:boulangerie-7.fr', name: 'Boulangerie 7', zip: '75002', leadatlas_id: records[7]!.leadId })

      const upsertsBefore = calls(fake, UPSERT)
      const second = await push(adapter, records)
      expect(count(second, 'created')).toBe(0)
      expect(second.every((result, index) => result.outcome === 'skipped' && result.reason === 'unchanged' && result.remoteId === first[index]!.remoteId)).toBe(true)
      expect(fake.companies.size).toBe(150)
      expect(calls(fake, UPSERT)).toBe(upsertsBefore)
    }))

  it('updates a changed value, by the id the first push stored', () =>
    withHubspot(async (fake, adapter) => {
      const first = await push(adapter, [1, 2, 3].map((index) => toCrmRecord(lead(index))))
      const again = [1, 2, 3].map((index, row) => ({ ...toCrmRecord(lead(index, index === 2 ? { name: 'Boulangerie Deux' } : {})), remoteId: first[row]!.remoteId }))
      const second = await push(adapter, again)
      expect(outcomes(second)).toEqual(['skipped', 'updated', 'skipped'])
      expect(second[1]!.remoteId).toBe(first[1]!.remoteId)
      expect(company(fake, first[1]!.remoteId).name).toBe('Boulangerie Deux')
      expect(fake.companies.size).toBe(3)
    }))

  it("keeps a fill_empty value a salesperson typed in HubSpot and restores an overwrite one; never sends a skip one", () =>
    withHubspot(async (fake, adapter) => {
      const record = toCrmRecord(lead(1))
      const [created] = await push(adapter, [record], { ...DEFAULT_CRM_MAPPING, rating: 'skip' })
      expect(company(fake, created!.remoteId!).leadatlas_rating).toBeUndefined()
      expect(DEFAULT_CRM_MAPPING.phone).toBe('fill_empty')
      expect(DEFAULT_CRM_MAPPING.city).toBe('overwrite')
      Object.assign(company(fake, created!.remoteId), { phone: '+33 6 99 99 99 99', city: 'Lyon' })

      const [second] = await push(adapter, [record])
      expect(second!.outcome).toBe('updated')
      expect(company(fake, created!.remoteId)).toMatchObject({ phone: '+33 6 99 99 99 99', city: 'Paris', leadatlas_rating: '4.5' })
      const [third] = await push(adapter, [record])
      expect(third).toMatchObject({ outcome: 'skipped', reason: 'unchanged' })
    }))

  it('finds a company created under the domain again when the record is now keyed by its SIRET', () =>
    withHubspot(async (fake, adapter) => {
      const before = toCrmRecord(lead(1))
      const after = toCrmRecord(lead(1, {}, { admin_fr_info: registry('55210055400013') }))
      expect(before.key).toBe('domain:boulangerie-1.fr')
      expect(after.key).toBe('siret:55210055400013')
      expect(after.aliases).toContain(before.key)

      const [created] = await push(adapter, [before])
      const [updated] = await push(adapter, [after])
      expect(updated).toMatchObject({ outcome: 'updated', remoteId: created!.remoteId })
      expect(fake.companies.size).toBe(1)
      expect(company(fake, created!.remoteId)).toMatchObject({ leadatlas_key: 'domain:boulangerie-1.fr', leadatlas_siret: '55210055400013', leadatlas_siren: '552100554' })
    }))

  it('writes one company for two leads of the same business in one batch', () =>
    withHubspot(async (fake, adapter) => {
      const records = [toCrmRecord(lead(1, {}, { email: emails('a@boulangerie-1.fr') })), toCrmRecord(lead(2, { website: 'https://www.boulangerie-1.fr/' }, { email: emails('b@boulangerie-1.fr') }))]
      const results = await push(adapter, records)
      expect(results.map(({ outcome, reason }) => [outcome, reason])).toEqual([
        ['created', null],
        ['skipped', 'duplicate'],
      ])
      expect(results[1]!.remoteId).toBe(results[0]!.remoteId)
      expect(fake.companies.size).toBe(1)
      expect(fake.associations.size).toBe(2)
    }))

  it('fails only the row HubSpot refuses in a 207, with its message', () =>
    withHubspot(async (fake, adapter) => {
      const records = [1, 2, 3].map((index) => toCrmRecord(lead(index, index === 2 ? { name: 'Boulangerie INVALID' } : {})))
      const results = await push(adapter, records)
      expect(outcomes(results)).toEqual(['created', 'failed', 'created'])
      expect(results[1]!.reason).toMatch(/^Property values were not valid/)
      expect(results[1]!.reason).toContain('is not a valid value for name')
      expect(results[1]!.remoteId).toBeNull()
      expect(fake.log.find((entry) => entry.path === UPSERT)!.status).toBe(207)
      expect(fake.companies.size).toBe(2)
    }))

  it('fails every row of a batch HubSpot refuses as a whole, with its message', () =>
    withHubspot(async (fake, adapter) => {
      fake.failNext(400, { status: 'error', message: 'Invalid input JSON on line 1', correlationId: 'c-1', category: 'VALIDATION_ERROR' }, undefined, UPSERT)
      const results = await push(adapter, [1, 2].map((index) => toCrmRecord(lead(index))))
      expect(results.map(({ outcome, reason }) => [outcome, reason])).toEqual([
        ['failed', 'Invalid input JSON on line 1'],
        ['failed', 'Invalid input JSON on line 1'],
      ])
      expect(fake.companies.size).toBe(0)
    }))

  it('fails the rows with HubSpot’s reason when the properties were never prepared', () =>
    withHubspot(
      async (_fake, adapter) => {
        const [result] = await push(adapter, [toCrmRecord(lead(1))])
        expect(result).toMatchObject({ outcome: 'failed', reason: 'leadatlas_key is not a unique identifier property for COMPANY' })
      },
      { prepare: false },
    ))

  it('waits for a 429’s Retry-After, then the push succeeds', () =>
    withHubspot(async (fake, adapter) => {
      const limited = { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: 'c-2', policyName: 'TEN_SECONDLY_ROLLING' }
      fake.failNext(429, limited, { 'Retry-After': '1' }, UPSERT)
      const started = Date.now()
      const results = await push(adapter, [1, 2].map((index) => toCrmRecord(lead(index))))
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(outcomes(results)).toEqual(['created', 'created'])
      expect(fake.log.filter((entry) => entry.path === UPSERT).map((entry) => entry.status)).toEqual([429, 200])
    }))

  it('retries a 5xx', () =>
    withHubspot(async (fake, adapter) => {
      fake.failNext(502, undefined, undefined, UPSERT)
      const results = await push(adapter, [toCrmRecord(lead(1))])
      expect(outcomes(results)).toEqual(['created'])
      expect(fake.companies.size).toBe(1)
    }))

  it('the fake answers 429 with Retry-After past its rolling limit', async () => {
    const fake = await startFakeHubspot({ token: TOKEN, limitPer10s: 2 })
    try {
      const get = () => fetch(`${fake.url}/account-info/2026-03/details`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(200)
      const third = await get()
      expect(third.status).toBe(429)
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(await third.json()).toMatchObject({ errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' })
    } finally {
      await fake.close()
    }
  })

  it('reports a wrong token: test() is not ok and upsert throws CrmAuthError', () =>
    withHubspot(async (fake, adapter) => {
      expect(await adapter.test({})).toEqual({ ok: true, account: String(fake.portalId) })
      const wrong = adapterFor(fake, 'pat-eu1-00000000-wrong-token')
      const outcome = await wrong.test({})
      expect(outcome.ok).toBe(false)
      expect(outcome.ok === false && outcome.reason).toMatch(/^Authentication credentials not found/)
      await expect(push(wrong, [toCrmRecord(lead(1))])).rejects.toBeInstanceOf(CrmAuthError)
      await expect(wrong.prepare({})).rejects.toBeInstanceOf(CrmAuthError)
      expect(fake.companies.size).toBe(0)
    }))

  it('prepare() creates the properties once', () =>
    withHubspot(
      async (fake, adapter) => {
        const posts = () => fake.log.filter((entry) => entry.method === 'POST' && entry.path === '/crm/properties/2026-03/companies').length
        const settings = await adapter.prepare({ sheetName: 'kept' })
        expect(settings).toEqual({ sheetName: 'kept', hubspotPropertiesReady: true })
        expect(fake.properties.size).toBe(11)
        expect(fake.properties.get('leadatlas_key')).toMatchObject({ hasUniqueValue: true, groupName: 'companyinformation', type: 'string', fieldType: 'text' })
        expect(fake.properties.get('leadatlas_siret')!.hasUniqueValue).toBe(false)
        expect(posts()).toBe(11)

        // The flag lost (another connection, a reset): the properties are found, none created twice.
        expect(await adapter.prepare({})).toEqual({ hubspotPropertiesReady: true })
        expect(posts()).toBe(11)
        expect(fake.log.every((entry) => entry.status !== 409)).toBe(true)
        const requests = fake.requests
        expect(await adapter.prepare(settings)).toBe(settings)
        expect(fake.requests).toBe(requests)
      },
      { prepare: false },
    ))

  it('prepare() reports what an admin must fix in HubSpot as refused credentials', () =>
    withHubspot(
      async (fake, adapter) => {
        const scopes = { status: 'error', message: 'This app hasn\'t been granted all required scopes to make this call.', correlationId: 'c-3', category: 'MISSING_SCOPES' }
        fake.failNext(403, scopes, undefined, '/crm/properties/2026-03/companies')
        await expect(adapter.prepare({})).rejects.toThrow(new CrmAuthError(scopes.message))

        const handMade = { name: 'leadatlas_key', label: 'Key', groupName: 'companyinformation', type: 'string', fieldType: 'text' }
        const created = await fetch(`${fake.url}/crm/properties/2026-03/companies`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(handMade) })
        expect(created.status).toBe(201)
        await expect(adapter.prepare({})).rejects.toThrow(new CrmAuthError('The HubSpot company property leadatlas_key exists without unique values'))
      },
      { prepare: false },
    ))

  it('fails a row sharing the write of a row HubSpot refuses', () =>
    withHubspot(async (fake, adapter) => {
      const records = [toCrmRecord(lead(1, { name: 'Boulangerie INVALID' })), toCrmRecord(lead(2, { website: 'https://boulangerie-1.fr' }))]
      const results = await push(adapter, records)
      expect(outcomes(results)).toEqual(['failed', 'failed'])
      expect(results[1]!.reason).toBe(results[0]!.reason)
      expect(fake.companies.size).toBe(0)
    }))

  it('upserts contacts once by email and associates each with its company', () =>
    withHubspot(async (fake, adapter) => {
      const records = [toCrmRecord(lead(1, {}, { email: emails('Anne@Boulangerie-1.fr', 'shared@example.fr') })), toCrmRecord(lead(2, {}, { email: emails('shared@example.fr') }))]
      const first = await push(adapter, records)
      const second = await push(adapter, records)
      expect(first.map((result) => result.reason)).toEqual([null, null])
      expect(outcomes(second)).toEqual(['skipped', 'skipped'])
      expect(fake.contacts.size).toBe(2)
      const byEmail = new Map([...fake.contacts.values()].map((contact) => [contact.properties.email, contact]))
      expect(byEmail.get('anne@boulangerie-1.fr')!.properties.company).toBe('Boulangerie 1')
      const anne = byEmail.get('anne@boulangerie-1.fr')!.id
      const shared = byEmail.get('shared@example.fr')!.id
      expect([...fake.associations].sort()).toEqual([`${anne}:${first[0]!.remoteId}`, `${shared}:${first[0]!.remoteId}`, `${shared}:${first[1]!.remoteId}`].sort())
    }))

  it('notes a contact HubSpot refuses beside the company, which stays created', () =>
    withHubspot(async (fake, adapter) => {
      fake.rejectProperty('refused.example')
      const [result] = await push(adapter, [toCrmRecord(lead(1, {}, { email: emails('someone@refused.example') }))])
      expect(result!.outcome).toBe('created')
      expect(result!.reason).toMatch(/^contacts: Property values were not valid/)
      expect(fake.companies.size).toBe(1)
      expect(fake.contacts.size).toBe(0)
    }))

  it('lists the contacts that opted out since the cursor', () =>
    withHubspot(async (fake, adapter) => {
      await push(adapter, [toCrmRecord(lead(1, {}, { email: emails('anne@boulangerie-1.fr', 'paul@boulangerie-1.fr') }))])
      const anne = fake.optOut('anne@boulangerie-1.fr')
      const page = await adapter.optOuts!(null)
      expect(page).toEqual({ emails: ['anne@boulangerie-1.fr'], cursor: anne.properties.lastmodifieddate })

      await new Promise((resolve) => setTimeout(resolve, 5))
      const paul = fake.optOut('PAUL@boulangerie-1.fr')
      const next = await adapter.optOuts!(page.cursor)
      expect(next.emails).toContain('paul@boulangerie-1.fr')
      expect(next.cursor).toBe(paul.properties.lastmodifieddate)
      const later = new Date(Date.parse(next.cursor) + 60_000).toISOString()
      expect(await adapter.optOuts!(later)).toEqual({ emails: [], cursor: later })
    }))

  it('reads every opt-out of a bulk unsubscribe made within one millisecond, then moves past it', () =>
    withHubspot(async (fake, adapter) => {
      const at = '2026-05-04T10:00:00.000Z'
      for (let index = 0; index < 150; index++) fake.optOut(`reader${index}@example.fr`).properties.lastmodifieddate = at
      const first = await adapter.optOuts!(null)
      expect(first).toMatchObject({ cursor: at })
      expect(first.emails).toHaveLength(100)
      const second = await adapter.optOuts!(first.cursor)
      expect(second.emails).toHaveLength(150)
      expect(second.cursor).toBe('2026-05-04T10:00:00.001Z')
      expect(await adapter.optOuts!(second.cursor)).toEqual({ emails: [], cursor: second.cursor })
    }))
})
