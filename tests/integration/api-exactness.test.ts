// The API's exactness (issue 28 items 4, 5, 7, 8, 9): forged cursors, unknown fields and sectors, per-user and
// per-address limits, refunds and replays past a command's limit, and a document that declares every refusal with
// its codes — checked by driving hostile requests at every operation and reading each answer against the document.
import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { API_OPERATIONS } from '#app/.server/api-v1/operations/index.ts'
import { createApiKey } from '#app/.server/api-v1/keys.ts'
import { closeDb } from '#app/.server/db.ts'
import { CLIENT_IP_HEADER } from '#app/.server/internal-headers.ts'
import { createLogger } from '#app/.server/observability/logger.ts'
import { routeConsoleToLogger } from '#app/.server/observability/process-errors.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  // Read when each limiter is first used, so for the whole file.
  process.env.RATE_LIMIT_API = '20/60'
  process.env.RATE_LIMIT_API_USER = '30/60'
  process.env.RATE_LIMIT_API_AUTH_FAIL_IP = '5/60/60'
  process.env.RATE_LIMIT_EXPORT_CREATE = '2/600'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }
const SOME_UUID = '00000000-0000-4000-8000-000000000000'
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Each test its own address, so the per-address limit of one never refuses another's requests. */
const newIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`

function call(key: string | null, method: string, path: string, { body, type = 'application/json', ip = newIp(), headers = {} }: { body?: string; type?: string; ip?: string; headers?: Record<string, string> } = {}) {
  return appFetch(`${API_ORIGIN}/api/v1${path}`, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'Content-Type': type } : {}), [CLIENT_IP_HEADER]: ip, ...headers },
    body,
  })
}

type DocumentedResponse = { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }> }
const documentPaths = () => openApiDocument().paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>

/** The codes the document gives for this operation's `status`; undefined when the status is not documented. */
function documentedCodes(path: string, method: string, status: number): string[] | undefined {
  const response = documentPaths()[`/api/v1${path}`]?.[method]?.responses[String(status)]
  if (!response) return undefined
  return response.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? []
}

/** Fails unless the answer is documented for the operation, and a problem's `code` is one its status lists. */
async function expectDocumented(path: string, method: string, response: Response) {
  const codes = documentedCodes(path, method, response.status)
  expect(codes, `${method.toUpperCase()} ${path} answered ${response.status}, not in the document`).toBeDefined()
  if (response.status < 400) return
  expect(response.headers.get('Content-Type')).toMatch(/^application\/problem\+json/)
  const { code } = (await response.clone().json()) as { code: string }
  expect(codes, `${method.toUpperCase()} ${path} ${response.status} ${code}`).toContain(code)
}

const concrete = (path: string) => path.replace(/\{\w+\}/g, SOME_UUID)
const LIST_OPERATIONS = API_OPERATIONS.filter((operation) => operation.query && 'shape' in operation.query && 'cursor' in (operation.query.shape as object))

describe('cursors (item 4)', () => {
  test('a forged cursor on every list is a 400 invalid_cursor problem, never a 500', async () => {
    expect(LIST_OPERATIONS.length).toBeGreaterThanOrEqual(5)
    const forged = [
      cursorOf(['0000-01-01T00:00:00.000Z', SOME_UUID]),
      cursorOf(['0000-02-29T00:00:00Z', SOME_UUID]),
      Buffer.from(`[99999999999999999999,"${SOME_UUID}"]`).toString('base64url'),
      cursorOf({ created_at: '2024-01-01T00:00:00Z' }),
      cursorOf([]),
      cursorOf([['nested'], SOME_UUID]),
      'bm90LWEtY3Vyc29y',
      '%%%',
      'A'.repeat(400),
    ]
    for (const operation of LIST_OPERATIONS) {
      // A user per list: the key's limit (20 a minute in this file) is not what is tested here.
      const { key } = await createApiUser(admin)
      for (const cursor of forged) {
        const response = await call(key, 'GET', `${concrete(operation.path)}?cursor=${encodeURIComponent(cursor)}`)
        expect(response.status, `${operation.id} ${cursor}`).toBe(400)
        expect(await response.clone().json()).toMatchObject({ code: 'invalid_cursor', errors: [{ path: 'query.cursor' }] })
        await expectDocumented(operation.path, operation.method, response)
      }
    }
  })

  test("a list's own shape is checked too: an export list cursor sent to the leads list is refused", async () => {
    const { key } = await createApiUser(admin)
    const response = await call(key, 'GET', `/exports/${SOME_UUID}/leads?cursor=${cursorOf(['2024-01-01T00:00:00.000Z', SOME_UUID])}`)
    expect(response.status).toBe(400)
  })

  test('console output and errors become scrubbed logger lines', () => {
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const saved = { error: console.error, warn: console.warn, info: console.info, log: console.log, debug: console.debug }
    try {
      routeConsoleToLogger(createLogger({ level: 'info', destination: { write: (text: string) => destination.write(text) } }))
      console.error('failed for', 'someone@example.fr', new Error('date/time field value out of range: "0000-01-01"\n  at query'))
    } finally {
      Object.assign(console, saved)
    }
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0]!) as { level: string; msg: string; err: { message: string; stack: string } }
    expect(line.level).toBe('error')
    expect(line.msg).toBe('failed for [email]')
    expect(line.err.message).toContain('out of range')
    expect(lines[0]).not.toContain('someone@example.fr')
  })
})

describe('unknown fields and values (item 9)', () => {
  test('an unknown body field, at any depth, or query parameter is a 422 naming it', async () => {
    const { key } = await createApiUser(admin)
    const typo = await call(key, 'POST', '/previews', { body: JSON.stringify({ criteria: BREST, filters: { hasWebsite: true } }) })
    expect(typo.status).toBe(422)
    expect(await typo.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.filters.hasWebsite' }] })
    const top = await call(key, 'POST', '/exports', { body: JSON.stringify({ name: 'x', criteria: { ...BREST, town: 'Brest' }, enrichments: ['phone'], maxLeads: 5 }) })
    expect(top.status).toBe(422)
    expect(((await top.json()) as { errors: Array<{ path: string }> }).errors.map((error) => error.path).sort()).toEqual(['body.criteria.town', 'body.maxLeads'])
    const query = await call(key, 'GET', '/exports?limt=5')
    expect(query.status).toBe(422)
    expect(await query.json()).toMatchObject({ errors: [{ path: 'query.limt' }] })
    const noQuery = await call(key, 'GET', '/me?verbose=1')
    expect(noQuery.status).toBe(422)
    const exact = await call(key, 'POST', '/previews', { body: JSON.stringify({ criteria: BREST, filters: { has_website: true } }) })
    expect(exact.status).toBe(200)
  })

  test('an unknown sector is a 422, a category id or its label is searched', async () => {
    const { key } = await createApiUser(admin)
    const unknown = await call(key, 'POST', '/previews', { body: JSON.stringify({ criteria: { ...BREST, sector: 'unicorn-farms' } }) })
    expect(unknown.status).toBe(422)
    expect(await unknown.json()).toMatchObject({ errors: [{ path: 'body.criteria.sector' }] })
    const exportOfIt = await call(key, 'POST', '/exports', { body: JSON.stringify({ name: 'x', criteria: { ...BREST, sector: 'unicorn-farms' }, enrichments: ['phone'] }) })
    expect(exportOfIt.status).toBe(422)
    expect((await call(key, 'POST', '/previews', { body: JSON.stringify({ criteria: { ...BREST, sector: 'Boulangerie' } }) })).status).toBe(200)
  })
})

describe('limits (items 5 and 8)', () => {
  test('failed keys are limited per address, before any lookup; other addresses are not refused', async () => {
    const { key } = await createApiUser(admin)
    const ip = newIp()
    for (let i = 0; i < 5; i += 1) expect((await call(`la_${'B'.repeat(40)}`, 'GET', '/me', { ip })).status).toBe(401)
    const refused = await call(`la_${'B'.repeat(40)}`, 'GET', '/me', { ip })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // The address is refused even with a good key; the same key from elsewhere works.
    expect((await call(key, 'GET', '/me', { ip })).status).toBe(429)
    expect((await call(key, 'GET', '/me')).status).toBe(200)
  })

  test("a user's keys share one limit, and the headers show the tightest", async () => {
    const { user, key } = await createApiUser(admin)
    const second = await createApiKey(user, 'second')
    for (let i = 0; i < 20; i += 1) expect((await call(key, 'GET', '/me')).status).toBe(200)
    const first = await call(second!.key, 'GET', '/me')
    expect(first.status).toBe(200)
    // Key: 19 left of 20; user: 9 left of 30. The user's limit is the tightest.
    expect(first.headers.get('RateLimit-Limit')).toBe('30')
    expect(first.headers.get('RateLimit-Remaining')).toBe('9')
    for (let i = 0; i < 9; i += 1) expect((await call(second!.key, 'GET', '/me')).status).toBe(200)
    const over = await call(second!.key, 'GET', '/me')
    expect(over.status).toBe(429)
    expect(await over.json()).toMatchObject({ code: 'rate_limited' })
  })

  test('a refused command gives its point back; a replay is answered past the limit; the command limit is in the headers', async () => {
    const broke = await createApiUser(admin, 0)
    for (let i = 0; i < 4; i += 1) {
      const refused = await call(broke.key, 'POST', '/exports', { body: JSON.stringify({ name: `x${i}`, criteria: BREST, enrichments: ['phone'] }) })
      expect(refused.status).toBe(402)
      expect(refused.headers.get('RateLimit-Limit')).toBe('2')
      expect(refused.headers.get('RateLimit-Remaining')).toBe('2')
    }
    const { key } = await createApiUser(admin, 100)
    const body = (name: string) => JSON.stringify({ name, criteria: BREST, enrichments: ['phone'], max_leads: 2 })
    const created = await call(key, 'POST', '/exports', { body: body('a'), headers: { 'Idempotency-Key': 'k1' } })
    expect(created.status).toBe(202)
    expect(created.headers.get('RateLimit-Remaining')).toBe('1')
    expect((await call(key, 'POST', '/exports', { body: body('b') })).status).toBe(202)
    const over = await call(key, 'POST', '/exports', { body: body('c') })
    expect(over.status).toBe(429)
    const replay = await call(key, 'POST', '/exports', { body: body('a'), headers: { 'Idempotency-Key': 'k1' } })
    expect(replay.status).toBe(200)
    expect(((await replay.json()) as { id: string }).id).toBe(((await created.json()) as { id: string }).id)
    const conflict = await call(key, 'POST', '/exports', { body: body('other'), headers: { 'Idempotency-Key': 'k1' } })
    expect(conflict.status).toBe(409)
    expect(await conflict.json()).toMatchObject({ code: 'idempotency_conflict' })
  })
})

describe('the document declares every refusal (item 7)', () => {
  test('every error response is problem+json listing its codes; the dispatcher refusals are on every operation', () => {
    for (const operation of API_OPERATIONS) {
      const responses = documentPaths()[`/api/v1${operation.path}`]![operation.method]!.responses
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue
        expect(response.content?.['application/problem+json']?.schema?.properties?.code?.enum?.length, `${operation.id} ${status}`).toBeGreaterThan(0)
      }
      for (const [status, code] of [
        [400, 'bad_json'],
        [401, 'invalid_api_key'],
        [405, 'method_not_allowed'],
        [413, 'payload_too_large'],
        [415, 'unsupported_media_type'],
        [422, 'validation_failed'],
        [429, 'rate_limited'],
        [500, 'internal_error'],
        [503, 'service_unavailable'],
      ] as const) {
        expect(documentedCodes(operation.path, operation.method, status), `${operation.id} ${status}`).toContain(code)
      }
    }
    expect(documentedCodes('/exports', 'post', 402)).toEqual(['insufficient_credits'])
    expect(documentedCodes('/exports', 'post', 409)).toEqual(['idempotency_conflict'])
    expect(documentedCodes('/previews', 'post', 503)).toEqual(['source_unavailable', 'service_unavailable'])
    // One code per meaning: a budget too small for one lead is not "no credits left".
    expect(documentedCodes('/saved-searches/{id}/runs', 'post', 409)).toEqual(['budget_too_small'])
  })

  test('hostile requests at every operation get answers the document declares', async () => {
    let sent = 0
    for (const operation of API_OPERATIONS) {
      // A user per operation: the key's limit (20 a minute in this file) must not answer for the requests below.
      const { key } = await createApiUser(admin, 0)
      const method = operation.method.toUpperCase()
      const path = concrete(operation.path)
      const withBody = method === 'POST'
      const requests: Array<[string | null, string, Parameters<typeof call>[3]]> = [
        [null, path, {}],
        ['la_short', path, {}],
        [key, path, withBody ? { body: '{}' } : {}],
        [key, `${path}?unknown_parameter=1`, withBody ? { body: '{}' } : {}],
        [key, path.replace(SOME_UUID, 'not-a-uuid'), withBody ? { body: '{}' } : {}],
        ...(withBody
          ? ([
              [key, path, { body: '{"a":' }],
              [key, path, { body: 'x=1', type: 'application/x-www-form-urlencoded' }],
              [key, path, { body: '{"unknown_field":1,"criteria":{"sector":"nope"}}' }],
              [key, path, { body: '[1,2]' }],
              [key, path, { body: '{"a":"\\u0000"}' }],
            ] as Array<[string, string, Parameters<typeof call>[3]]>)
          : []),
        [key, path, { headers: { 'Idempotency-Key': '' } }],
      ]
      for (const [apiKey, url, options] of requests) {
        const response = await call(apiKey, method, url, options)
        sent += 1
        expect(response.status, `${method} ${url}`).toBeLessThan(500)
        await expectDocumented(operation.path, operation.method, response)
      }
    }
    expect(sent).toBeGreaterThan(100)
  })
})
