// The Brevo adapter against a local Brevo (tests/support/crm-fakes/brevo.ts): contacts keyed by email carrying their
// company, pushes that never duplicate, fill_empty values a salesperson typed kept, the import path behind its
// process id, refusals on their own row, the rate limit, the credentials and the opt-outs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiLead, type LeadShape } from '#tests/support/crm-leads.ts'
import { CRM_FIELDS, DEFAULT_CRM_MAPPING, toCrmRecord, type CrmMapping, type CrmRecord } from '#app/domain/crm.ts'
import { createCrmHttp, CrmAuthError } from '#app/.server/integrations/crm-http.ts'
import { brevo } from '#app/.server/integrations/providers/brevo.ts'
import type { CrmAdapter } from '#app/.server/integrations/providers/types.ts'
import { startFakeBrevo, type FakeBrevo } from '#tests/support/crm-fakes/brevo.ts'

const KEY = 'xkeysib-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef-FakeBrevoKey0001'
const OVERWRITE_ALL = Object.fromEntries(CRM_FIELDS.map((field) => [field, 'overwrite'])) as CrmMapping

let fake: FakeBrevo
let adapter: CrmAdapter

function connect(secret = KEY, retryBaseDelayMs = 10): CrmAdapter {
  return brevo.create({
    secret,
    baseUrl: fake.url,
    http: (headers) => createCrmHttp({ baseUrl: fake.url, headers, limitKey: 'test', budgets: brevo.budgets, account: 'w1', limits: null, retryBaseDelayMs }),
  })
}

const record = (shape: LeadShape = {}): CrmRecord => toCrmRecord(apiLead(shape))
/** What the job does between pushes: the remote id of an earlier push is stored with the record. */
const again = (records: CrmRecord[], results: { remoteId: string | null }[]) => records.map((one, index) => ({ ...one, remoteId: results[index]!.remoteId }))
const count = (results: { outcome: string }[], outcome: string) => results.filter((result) => result.outcome === outcome).length
const requestsTo = (method: string, path: string | RegExp) =>
  fake.requests.filter((request) => request.method === method && (typeof path === 'string' ? request.path === path : path.test(request.path)))

function many(total: number): CrmRecord[] {
  return Array.from({ length: total }, (_, index) => record({ name: `Commerce ${index}`, website: `https://commerce-${index}.fr`, emails: [`contact@commerce-${index}.fr`] }))
}

beforeEach(async () => {
  fake = await startFakeBrevo({ apiKey: KEY })
  adapter = connect()
  await adapter.prepare({})
})

afterEach(async () => {
  await fake.close()
})

describe('Brevo: credentials and setup', () => {
  it('test() names the account, or says why Brevo refused the key', async () => {
    await expect(adapter.test({})).resolves.toEqual({ ok: true, account: 'Atelier Martin' })
    await expect(connect('xkeysib-wrong-key-0000000000000000000000').test({})).resolves.toEqual({ ok: false, reason: 'Key not found' })
  })

  it('a wrong key makes upsert throw CrmAuthError', async () => {
    await expect(connect('xkeysib-wrong-key-0000000000000000000000').upsert([record()], DEFAULT_CRM_MAPPING, {})).rejects.toBeInstanceOf(CrmAuthError)
  })

  it('checkSecret accepts Brevo keys and refuses what cannot be one', () => {
    expect(brevo.checkSecret(KEY)).toBeNull()
    expect(brevo.checkSecret('short')).toBe('invalid_secret')
    expect(brevo.checkSecret('has spaces in the middle of it all')).toBe('invalid_secret')
  })

  it('prepare creates our text attributes once', async () => {
    for (const name of ['COMPANY', 'SIRET', 'LEADATLAS_PHONE', 'LEADATLAS_ID', 'LEADATLAS_KEY']) expect(fake.attributes.get(name)).toMatchObject({ category: 'normal', type: 'text' })
    const created = requestsTo('POST', /^\/v3\/contacts\/attributes\//).length
    await adapter.prepare({})
    expect(requestsTo('POST', /^\/v3\/contacts\/attributes\//)).toHaveLength(created)
  })

  it('prepare refuses a list that does not exist', async () => {
    await expect(adapter.prepare({ brevoListId: 2 })).resolves.toEqual({ brevoListId: 2 })
    await expect(adapter.prepare({ brevoListId: 99 })).rejects.toThrow(/no list 99/)
  })
})

describe('Brevo: one call per contact (small batches)', () => {
  it('pushing twice creates each contact once; the second push creates nothing', async () => {
    const records = [record({ emails: ['a@paul.fr', 'b@paul.fr'] }), record({ name: 'Fleurs Anna', website: 'https://fleurs-anna.fr', emails: ['anna@fleurs-anna.fr'] })]
    const first = await adapter.upsert(records, DEFAULT_CRM_MAPPING, {})
    expect(first.map((result) => [result.outcome, result.remoteId])).toEqual([
      ['created', 'a@paul.fr'],
      ['created', 'anna@fleurs-anna.fr'],
    ])
    expect(fake.contacts.get('b@paul.fr')!.attributes).toMatchObject({ COMPANY: 'Boulangerie Paul', LEADATLAS_KEY: 'domain:boulangerie-paul.fr', LEADATLAS_PHONE: '+33123456789' })
    const second = await adapter.upsert(again(records, first), DEFAULT_CRM_MAPPING, {})
    expect(count(second, 'created')).toBe(0)
    expect(second.map((result) => result.outcome)).toEqual(['skipped', 'skipped'])
    expect(fake.contacts.size).toBe(3)
  })

  it('changed values are updated', async () => {
    const first = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, {})
    const renamed = await adapter.upsert(again([record({ name: 'Boulangerie Paul & Fils' })], first), DEFAULT_CRM_MAPPING, {})
    expect(renamed[0]).toMatchObject({ outcome: 'updated', remoteId: 'contact@boulangerie-paul.fr' })
    expect(fake.contacts.get('contact@boulangerie-paul.fr')!.attributes.COMPANY).toBe('Boulangerie Paul & Fils')
  })

  it('a fill_empty value typed in Brevo is kept; an emptied one is filled again', async () => {
    const first = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, {})
    const contact = fake.contacts.get('contact@boulangerie-paul.fr')!
    contact.attributes.LEADATLAS_PHONE = '06 11 22 33 44 (Marie)'
    contact.attributes.WEBSITE = ''
    const next = await adapter.upsert(again([record({ phone: '+33999999999' })], first), DEFAULT_CRM_MAPPING, {})
    expect(next[0]!.outcome).toBe('updated')
    expect(fake.contacts.get('contact@boulangerie-paul.fr')!.attributes).toMatchObject({ LEADATLAS_PHONE: '06 11 22 33 44 (Marie)', WEBSITE: 'https://boulangerie-paul.fr' })
  })

  it('a record whose key moved from domain to SIRET updates the same contact with its new key', async () => {
    const first = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, {})
    const next = await adapter.upsert(again([record({ siret: '55210055400013' })], first), DEFAULT_CRM_MAPPING, {})
    expect(next[0]).toMatchObject({ outcome: 'updated', remoteId: 'contact@boulangerie-paul.fr' })
    expect(fake.contacts.size).toBe(1)
    expect(fake.contacts.get('contact@boulangerie-paul.fr')!.attributes).toMatchObject({ LEADATLAS_KEY: 'siret:55210055400013', SIRET: '55210055400013' })
  })

  it('a record without an email is skipped (no_email) without a call', async () => {
    const before = fake.requests.length
    const results = await adapter.upsert([record({ emails: [] })], DEFAULT_CRM_MAPPING, {})
    expect(results).toEqual([{ leadId: expect.any(String), outcome: 'skipped', remoteId: null, reason: 'no_email' }])
    expect(fake.requests.length).toBe(before)
  })

  it('a contact Brevo refuses fails alone, with Brevo’s message', async () => {
    const records = [record(), record({ name: 'Mauvais', website: 'https://mauvais.fr', emails: ['not-an-email'] }), record({ name: 'Fleurs Anna', website: 'https://fleurs-anna.fr', emails: ['anna@fleurs-anna.fr'] })]
    const results = await adapter.upsert(records, OVERWRITE_ALL, {})
    expect(results.map((result) => result.outcome)).toEqual(['created', 'failed', 'created'])
    expect(results[1]).toMatchObject({ remoteId: null, reason: 'Invalid email address' })
  })

  it('contacts join the connection’s list', async () => {
    await adapter.upsert([record()], DEFAULT_CRM_MAPPING, { brevoListId: 2 })
    expect(fake.contacts.get('contact@boulangerie-paul.fr')!.listIds).toEqual([2])
  })

  it('Brevo’s 429 (no Retry-After, x-sib-ratelimit-reset) is backed off and every contact still lands', async () => {
    fake.limit(3)
    const slow = connect(KEY, 300)
    const records = Array.from({ length: 6 }, (_, index) => record({ name: `Commerce ${index}`, website: `https://c${index}.fr`, emails: [`c@c${index}.fr`] }))
    const results = await slow.upsert(records, OVERWRITE_ALL, {})
    expect(count(results, 'created')).toBe(6)
    expect(fake.contacts.size).toBe(6)
    expect(fake.requests.filter((request) => request.status === 429).length).toBeGreaterThan(0)
  }, 30_000)
})

describe('Brevo: the import (larger batches)', () => {
  it('150 contacts go in one import, completed behind its process id; pushing again imports nothing', async () => {
    const records = many(150)
    const first = await adapter.upsert(records, DEFAULT_CRM_MAPPING, { brevoListId: 2 })
    expect(count(first, 'created')).toBe(150)
    expect(requestsTo('POST', '/v3/contacts/import')).toHaveLength(1)
    expect(requestsTo('POST', '/v3/contacts')).toHaveLength(0)
    expect(requestsTo('GET', /^\/v3\/processes\/\d+$/).length).toBeGreaterThan(0)
    const body = fake.imports[0]!.body
    expect(body).toMatchObject({ updateExistingContacts: true, emptyContactsAttributes: false, listIds: [2] })
    expect(body.jsonBody).toHaveLength(150)
    expect(fake.contacts.size).toBe(150)
    expect(fake.contacts.get('contact@commerce-7.fr')!.attributes).toMatchObject({ COMPANY: 'Commerce 7', LEADATLAS_KEY: 'domain:commerce-7.fr' })

    const second = await adapter.upsert(again(records, first), DEFAULT_CRM_MAPPING, { brevoListId: 2 })
    expect(count(second, 'created')).toBe(0)
    expect(count(second, 'skipped')).toBe(150)
    expect(fake.imports).toHaveLength(1)
    expect(fake.contacts.size).toBe(150)
  })

  it('fill_empty values typed in Brevo survive an import; changed ones are imported as updates', async () => {
    const records = many(20)
    const first = await adapter.upsert(records, DEFAULT_CRM_MAPPING, {})
    fake.contacts.get('contact@commerce-3.fr')!.attributes.LEADATLAS_PHONE = '06 00 00 00 03'
    const changed = again(records, first).map((one, index) => (index === 3 ? { ...one, company: { ...one.company, name: 'Commerce trois', phone: '+33100000003' } } : one))
    const second = await adapter.upsert(changed, DEFAULT_CRM_MAPPING, {})
    expect(second[3]!.outcome).toBe('updated')
    expect(count(second, 'skipped')).toBe(19)
    expect(fake.imports[1]!.body.jsonBody).toHaveLength(1)
    expect(fake.contacts.get('contact@commerce-3.fr')!.attributes).toMatchObject({ COMPANY: 'Commerce trois', LEADATLAS_PHONE: '06 00 00 00 03' })
  })

  it('a failed import process fails its rows', async () => {
    fake.failNextImport()
    const results = await adapter.upsert(many(15), OVERWRITE_ALL, {})
    expect(count(results, 'failed')).toBe(15)
    expect(results[0]!.reason).toMatch(/import \d+ failed/)
    expect(fake.contacts.size).toBe(0)
  })

  it('an import Brevo refuses as a whole is written one call per contact, so each refusal lands on its row', async () => {
    fake.failNext(400, { code: 'invalid_parameter', message: 'listIds is mandatory' })
    const results = await adapter.upsert(many(12), OVERWRITE_ALL, {})
    expect(count(results, 'created')).toBe(12)
    expect(requestsTo('POST', '/v3/contacts')).toHaveLength(12)
  })
})

describe('Brevo: opt-outs', () => {
  it('returns the blacklisted emails, then only those that changed since the cursor', async () => {
    await adapter.upsert(many(5), OVERWRITE_ALL, {})
    fake.blacklist('contact@commerce-1.fr')
    const first = await adapter.optOuts!(null)
    expect(first.emails).toEqual(['contact@commerce-1.fr'])
    expect(first.cursor).toBe(fake.contacts.get('contact@commerce-1.fr')!.modifiedAt)
    fake.blacklist('contact@commerce-4.fr')
    const next = await adapter.optOuts!(first.cursor)
    expect(next.emails).toEqual(['contact@commerce-4.fr'])
    expect(Date.parse(next.cursor)).toBeGreaterThan(Date.parse(first.cursor))
    const listing = requestsTo('GET', '/v3/contacts').at(-1)!
    expect(Object.fromEntries(listing.query)).toMatchObject({ modifiedSince: first.cursor, limit: '500', sort: 'asc', offset: '0' })
  })

  it('keeps the cursor when nothing changed', async () => {
    const cursor = '2030-01-01T00:00:00.000Z'
    await expect(adapter.optOuts!(cursor)).resolves.toEqual({ emails: [], cursor })
  })
})
