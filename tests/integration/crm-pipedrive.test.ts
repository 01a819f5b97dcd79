// The Pipedrive adapter (issue 30) against the local fake Pipedrive (tests/support/crm-fakes/pipedrive.ts): custom
// fields made once, organizations upserted by their dedupe keys through API v2, the mapping's modes, a row Pipedrive
// refuses, its rate limit and outages, refused credentials, persons and leads.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { CrmAuthError, createCrmHttp } from '#app/.server/integrations/crm-http.ts'
import { pipedrive } from '#app/.server/integrations/providers/pipedrive.ts'
import type { ConnectionSettings, CrmAdapter } from '#app/.server/integrations/providers/types.ts'
import type { ApiLead } from '#app/domain/api-lead.ts'
import { DEFAULT_CRM_MAPPING, toCrmRecord, type CrmMapping, type CrmRecord, type CrmRowResult } from '#app/domain/crm.ts'
import { FAKE_INVALID_NAME_ERROR, FAKE_PIPEDRIVE_TOKEN, startFakePipedrive, type FakePipedrive } from '#tests/support/crm-fakes/pipedrive.ts'

type Registry = NonNullable<ApiLead['enrichments']['admin_fr_info']>

function registry(siren: string, siret: string): Registry {
  return {
    status: 'success',
    reused_at: null,
    siren,
    siret,
    legal_name: null,
    naf_code: '10.71C',
    legal_category: null,
    headcount_band: null,
    creation_date: null,
    match_confidence: null,
    naf_label: null,
    legal_form: null,
    headcount: '3 to 5 employees',
    administrative_state: null,
    head_office_address: null,
    directors: null,
    matched_by: null,
    id_source_page: null,
    risk: null,
    risk_date: null,
    risk_tribunal: null,
    risk_announcement: null,
    administrative_state_code: 'A',
    matched_by_code: 'siret',
    risk_code: null,
    source: null,
  }
}

function emails(addresses: string[]): NonNullable<ApiLead['enrichments']['email']> {
  return {
    status: 'success',
    reused_at: null,
    email: addresses.map((address) => ({ address, quality: null, source: { page: null, found_at: null } })),
  }
}

/** Lead `n` of an export: a bakery with a website and an address; registry data and emails when asked. */
function lead(n: number, options: { registry?: boolean; emails?: string[]; name?: string; rating?: number } = {}): ApiLead {
  const suffix = String(n).padStart(3, '0')
  return {
    id: `6f1c2a9e-3b7d-4e0a-9c55-000000000${suffix}`,
    position: n,
    name: options.name ?? `Boulangerie ${suffix}`,
    full_address: `${n} rue de la Paix, 75002 Paris`,
    city: 'Paris',
    postal_code: '75002',
    country_code: 'FR',
    phone: '+33 1 23 45 67 89',
    phone_e164: '+33123456789',
    website: `https://boulangerie-${suffix}.fr`,
    latitude: 48.8686,
    longitude: 2.3314,
    rating: options.rating ?? 4.5,
    review_count: 128,
    business_types: ['bakery'],
    google_maps_url: null,
    working_hours: null,
    operational_state: 'OPERATIONAL',
    description: null,
    source: 'osm',
    source_id: `node/${n}`,
    source_url: `https://www.openstreetmap.org/node/${n}`,
    enrichments: {
      phone: null,
      website: null,
      email: options.emails ? emails(options.emails) : null,
      technologies: null,
      social: null,
      admin_fr_info: options.registry === false ? null : registry(`552100${suffix}`, `552100${suffix}00013`),
    },
  }
}

function adapterFor(fake: FakePipedrive, secret = FAKE_PIPEDRIVE_TOKEN): CrmAdapter {
  return pipedrive.create({
    secret,
    baseUrl: fake.url,
    http: (headers) => createCrmHttp({ baseUrl: fake.url, headers, limitKey: 'test', budgets: pipedrive.budgets, account: 'w1', limits: null, retryBaseDelayMs: 10 }),
  })
}

/** As the push job does: the records in the adapter's batches. */
async function push(adapter: CrmAdapter, records: CrmRecord[], settings: ConnectionSettings, mapping: CrmMapping = DEFAULT_CRM_MAPPING): Promise<CrmRowResult[]> {
  const results: CrmRowResult[] = []
  for (let start = 0; start < records.length; start += adapter.batchSize) results.push(...(await adapter.upsert(records.slice(start, start + adapter.batchSize), mapping, settings)))
  return results
}

function counts(results: CrmRowResult[]) {
  const out = { created: 0, updated: 0, skipped: 0, failed: 0 }
  for (const result of results) out[result.outcome]++
  return out
}

let fake: FakePipedrive
let settings: ConnectionSettings

beforeEach(async () => {
  fake = await startFakePipedrive()
  settings = await adapterFor(fake).prepare({})
})
afterEach(async () => {
  await fake.close()
})

/** Our custom field's key for a CrmField (or `key`), as prepare stored it. */
function key(slot: string): string {
  const code = settings.pipedriveFieldKeys?.[slot]
  if (!code) throw new Error(`no field key for ${slot}`)
  return code
}

describe('prepare', () => {
  test('creates each custom field once, reuses one found by name, and returns their 40-character keys', async () => {
    await fake.close()
    fake = await startFakePipedrive()
    const handMade = 'a'.repeat(40)
    fake.fields.set(handMade, { field_code: handMade, field_name: 'SIREN', field_type: 'varchar', is_custom_field: true, is_optional_response_field: false, options: null, subfields: null })

    const first = await adapterFor(fake).prepare({ brevoListId: 7 })
    const second = await adapterFor(fake).prepare(first)

    const custom = [...fake.fields.values()].filter((field) => field.is_custom_field)
    const names = custom.map((field) => field.field_name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(expect.arrayContaining(['LeadAtlas key', 'LeadAtlas ID', 'SIREN', 'SIRET', 'NAF', 'Headcount', 'Rating', 'LinkedIn', 'Facebook', 'Twitter', 'Instagram', 'TikTok', 'Technologies', 'Source (LeadAtlas)']))
    expect(fake.calls.filter((call) => call.method === 'POST' && call.path === '/api/v2/organizationFields')).toHaveLength(custom.length - 1)
    expect(first.pipedriveFieldKeys!.siren).toBe(handMade)
    expect(Object.values(first.pipedriveFieldKeys!).every((key) => /^[0-9a-f]{40}$/.test(key))).toBe(true)
    expect(second).toEqual(first)
    expect(first.brevoListId).toBe(7)
  })
})

describe('upsert', () => {
  test('60 records pushed twice make 60 organizations: the second push creates none and changes nothing', async () => {
    const records = Array.from({ length: 60 }, (_, n) => toCrmRecord(lead(n, { emails: [`contact@boulangerie-${n}.fr`] })))

    const first = await push(adapterFor(fake), records, settings)
    expect(counts(first)).toEqual({ created: 60, updated: 0, skipped: 0, failed: 0 })
    expect(first.map((result) => result.leadId)).toEqual(records.map((record) => record.leadId))
    expect(fake.organizations.size).toBe(60)
    const organization = fake.organizations.get(Number(first[0]!.remoteId))!
    expect(organization.name).toBe('Boulangerie 000')
    expect(organization.address).toEqual({ value: '0 rue de la Paix, 75002 Paris' })
    expect(organization.custom_fields[key('key')]).toBe('siret:55210000000013')
    expect(organization.custom_fields[key('siren')]).toBe('552100000')
    expect(organization.custom_fields[key('domain')]).toBe('boulangerie-000.fr')
    expect(organization.custom_fields[key('phone')]).toBe('+33123456789')

    const second = await push(adapterFor(fake), records, settings)
    expect(counts(second)).toEqual({ created: 0, updated: 0, skipped: 60, failed: 0 })
    expect(second.every((result) => result.reason === 'unchanged')).toBe(true)
    expect(second.map((result) => result.remoteId)).toEqual(first.map((result) => result.remoteId))
    expect(fake.organizations.size).toBe(60)
    expect(fake.persons.size).toBe(60)
    // Only API v2 for organizations and persons (v1's are out of support).
    expect(fake.calls.some((call) => /^\/(api\/)?v1\/(organizations|persons)/.test(call.path))).toBe(false)
  })

  test('a record pushed before is read by its id, not searched again', async () => {
    const [created] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    const before = fake.calls.length
    const [again] = await push(adapterFor(fake), [{ ...toCrmRecord(lead(1)), remoteId: created!.remoteId }], settings)
    expect(again).toMatchObject({ outcome: 'skipped', remoteId: created!.remoteId })
    expect(fake.calls.slice(before).map((call) => `${call.method} ${call.path}`)).toEqual([`GET /api/v2/organizations/${created!.remoteId}`])
  })

  test('an id whose organization is gone falls back to the search', async () => {
    const [created] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    const [again] = await push(adapterFor(fake), [{ ...toCrmRecord(lead(1)), remoteId: '987654' }], settings)
    expect(again).toMatchObject({ outcome: 'skipped', remoteId: created!.remoteId })
    expect(fake.organizations.size).toBe(1)
  })

  test('a changed value updates the organization', async () => {
    await push(adapterFor(fake), [toCrmRecord(lead(1)), toCrmRecord(lead(2))], settings)
    const results = await push(adapterFor(fake), [toCrmRecord(lead(1, { rating: 3.9 })), toCrmRecord(lead(2))], settings)
    expect(results.map((result) => result.outcome)).toEqual(['updated', 'skipped'])
    expect(fake.organizations.get(Number(results[0]!.remoteId))!.custom_fields[key('rating')]).toBe('3.9')
    const patch = fake.calls.filter((call) => call.method === 'PATCH')
    expect(patch).toHaveLength(1)
  })

  test('a fill_empty value edited in Pipedrive is kept, an overwrite one is replaced', async () => {
    const [created] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    const organization = fake.organizations.get(Number(created!.remoteId))!
    expect(DEFAULT_CRM_MAPPING.phone).toBe('fill_empty')
    expect(DEFAULT_CRM_MAPPING.siren).toBe('overwrite')
    organization.custom_fields[key('phone')] = '+33 9 99 99 99 99'
    organization.custom_fields[key('siren')] = '999999999'
    organization.name = 'Renamed by a salesperson'

    const [result] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    expect(result!.outcome).toBe('updated')
    expect(organization.custom_fields[key('phone')]).toBe('+33 9 99 99 99 99')
    expect(organization.custom_fields[key('siren')]).toBe('552100001')
    expect(organization.name).toBe('Boulangerie 001')
  })

  test('a skipped field is never sent', async () => {
    const mapping: CrmMapping = { ...DEFAULT_CRM_MAPPING, rating: 'skip' }
    const [created] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings, mapping)
    expect(fake.organizations.get(Number(created!.remoteId))!.custom_fields[key('rating')]).toBeUndefined()
  })

  test('a record whose key moved from domain: to siret: updates the organization made under its domain', async () => {
    const before = toCrmRecord(lead(1, { registry: false }))
    expect(before.key).toBe('domain:boulangerie-001.fr')
    const [created] = await push(adapterFor(fake), [before], settings)

    const after = toCrmRecord(lead(1))
    expect(after.key).toBe('siret:55210000100013')
    expect(after.aliases).toContain(before.key)
    const [updated] = await push(adapterFor(fake), [after], settings)

    expect(updated).toMatchObject({ outcome: 'updated', remoteId: created!.remoteId })
    expect(fake.organizations.size).toBe(1)
    const organization = fake.organizations.get(Number(created!.remoteId))!
    expect(organization.custom_fields[key('siret')]).toBe('55210000100013')
    // Kept: an export without registry data still finds it by its domain.
    expect(organization.custom_fields[key('key')]).toBe(before.key)
    const [again] = await push(adapterFor(fake), [toCrmRecord(lead(1, { registry: false }))], settings)
    expect(again).toMatchObject({ outcome: 'skipped', remoteId: created!.remoteId })
  })

  test('the same business twice in one batch is one organization', async () => {
    const results = await push(adapterFor(fake), [toCrmRecord(lead(1)), toCrmRecord(lead(1))], settings)
    expect(results.map((result) => result.outcome)).toEqual(['created', 'skipped'])
    expect(fake.organizations.size).toBe(1)
  })

  test('a row Pipedrive refuses fails alone, with Pipedrive’s words', async () => {
    const records = [toCrmRecord(lead(1)), toCrmRecord(lead(2, { name: 'Boulangerie INVALID' })), toCrmRecord(lead(3))]
    const results = await push(adapterFor(fake), records, settings)
    expect(results.map((result) => result.outcome)).toEqual(['created', 'failed', 'created'])
    expect(results[1]).toEqual({ leadId: records[1]!.leadId, outcome: 'failed', remoteId: null, reason: FAKE_INVALID_NAME_ERROR })
    expect(fake.organizations.size).toBe(2)
  })

  test('a value longer than its field is cut, and read back as unchanged', async () => {
    const record = toCrmRecord(lead(1))
    record.company.linkedin = `https://www.linkedin.com/company/${'x'.repeat(300)}`
    const [created] = await push(adapterFor(fake), [record], settings)
    expect(created!.outcome).toBe('created')
    expect(fake.organizations.get(Number(created!.remoteId))!.custom_fields[key('linkedin')]).toHaveLength(255)
    const [again] = await push(adapterFor(fake), [record], settings)
    expect(again!.outcome).toBe('skipped')
  })
})

describe('limits and outages', () => {
  test('a 429 with Retry-After: 1 is waited for, then the push goes on', async () => {
    fake.failNext(429, { success: false, error: 'Request over limit', errorCode: 429 }, { 'retry-after': '1', 'x-ratelimit-remaining': '0' })
    const started = Date.now()
    const [result] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(result!.outcome).toBe('created')
    expect(fake.organizations.size).toBe(1)
  })

  test('the fake’s burst limit answers 429 past its rolling 2 s, and every record still lands', async () => {
    await fake.close()
    fake = await startFakePipedrive({ burstPer2s: 15 })
    settings = await adapterFor(fake).prepare({})
    const results = await push(adapterFor(fake), [toCrmRecord(lead(1)), toCrmRecord(lead(2)), toCrmRecord(lead(3))], settings)
    expect(counts(results).created).toBe(3)
    expect(fake.throttled).toBeGreaterThan(0)
  })

  test('5xx answers are retried', async () => {
    fake.failNext(503)
    fake.failNext(502)
    const [result] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    expect(result!.outcome).toBe('created')
  })
})

describe('credentials', () => {
  test('the right token names the account; a wrong one is refused with Pipedrive’s reason and stops a push', async () => {
    await expect(adapterFor(fake).test({})).resolves.toEqual({ ok: true, account: 'Fake Company' })
    const wrong = adapterFor(fake, 'f'.repeat(40))
    await expect(wrong.test({})).resolves.toEqual({ ok: false, reason: 'unauthorized access' })
    await expect(wrong.upsert([toCrmRecord(lead(1))], DEFAULT_CRM_MAPPING, settings)).rejects.toBeInstanceOf(CrmAuthError)
    await expect(wrong.upsert([toCrmRecord(lead(1))], DEFAULT_CRM_MAPPING, {})).rejects.toBeInstanceOf(CrmAuthError)
    await expect(wrong.prepare({})).rejects.toBeInstanceOf(CrmAuthError)
    expect(fake.organizations.size).toBe(0)
  })

  test('a pasted token is checked for its shape', () => {
    expect(pipedrive.checkSecret(FAKE_PIPEDRIVE_TOKEN)).toBeNull()
    expect(pipedrive.checkSecret('short')).toBe('invalid_secret')
    expect(pipedrive.checkSecret(`${FAKE_PIPEDRIVE_TOKEN} `)).toBe('invalid_secret')
    expect(pipedrive.checkSecret('x'.repeat(101))).toBe('invalid_secret')
  })
})

describe('persons and leads', () => {
  test('one person per address, linked to the organization, never created twice', async () => {
    const existing = { id: 9000, name: 'Known', owner_id: 1, org_id: null, add_time: '', update_time: '', is_deleted: false, visible_to: 3, emails: [{ value: 'known@boulangerie-2.fr', primary: true, label: 'work' }], phones: [] }
    fake.persons.set(existing.id, existing)
    const records = [toCrmRecord(lead(1, { emails: ['paul@boulangerie-1.fr', 'Contact@Boulangerie-1.fr'] })), toCrmRecord(lead(2, { emails: ['known@boulangerie-2.fr'] }))]

    const first = await push(adapterFor(fake), records, settings)
    await push(adapterFor(fake), records, settings)

    const made = [...fake.persons.values()].filter((person) => person.id !== existing.id)
    expect(made.map((person) => person.emails.map((email) => email.value)).sort()).toEqual([['contact@boulangerie-1.fr'], ['paul@boulangerie-1.fr']])
    expect(made.every((person) => person.org_id === Number(first[0]!.remoteId))).toBe(true)
    expect(made.find((person) => person.emails[0]!.value === 'paul@boulangerie-1.fr')!.name).toBe('paul')
    expect(made[0]!.emails[0]).toMatchObject({ primary: true, label: 'work' })
  })

  test('a person Pipedrive refuses is noted on the row, which stands', async () => {
    const [created] = await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    fake.failOn('POST', '/api/v2/persons', 400, { success: false, error: 'Validation failed: emails: invalid', error_info: '', data: null })
    const [result] = await push(adapterFor(fake), [{ ...toCrmRecord(lead(1, { emails: ['bad@boulangerie-1.fr'] })), remoteId: created!.remoteId }], settings)
    expect(result).toMatchObject({ outcome: 'skipped', remoteId: created!.remoteId })
    expect(fake.persons.size).toBe(0)
    expect(result!.reason).toContain('person bad@boulangerie-1.fr not added: Validation failed: emails: invalid')
  })

  test('leads are created for new organizations only when the connection asks', async () => {
    await push(adapterFor(fake), [toCrmRecord(lead(1))], settings)
    expect(fake.leads.size).toBe(0)
    const withLeads = { ...settings, pipedriveCreateLeads: true } as ConnectionSettings
    const results = await push(adapterFor(fake), [toCrmRecord(lead(1)), toCrmRecord(lead(2))], withLeads)
    expect(results.map((result) => result.outcome)).toEqual(['skipped', 'created'])
    expect([...fake.leads.values()].map((entry) => ({ title: entry.title, organization_id: entry.organization_id }))).toEqual([{ title: 'Boulangerie 002', organization_id: Number(results[1]!.remoteId) }])
  })
})
