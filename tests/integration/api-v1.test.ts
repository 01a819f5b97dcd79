// The public API (issue 20, ../shared/API.md) through the client generated from its own OpenAPI document: every
// answer is checked against the document (tests/support/api-client.ts), so a drift fails here.
import SwaggerParser from '@apidevtools/swagger-parser'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { revokeApiKey } from '#app/.server/api-v1/keys.ts'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { API_ORIGIN, appFetch, createApiClient, createApiUser } from '#tests/support/api-client.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  // Read when the limiter is first used, so for the whole file: low enough for a test to reach it.
  process.env.RATE_LIMIT_API = '40/60'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }

async function ledger(userId: string) {
  const { rows } = await admin.query<{ remaining: number; exports: number }>(
    `select (select remaining_credits from public.user_credits where user_id = $1) as remaining,
            (select count(*)::int from public.exports where user_id = $1) as exports`,
    [userId],
  )
  return rows[0]!
}

describe('the OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 document listing every operation of API.md', async () => {
    const document = structuredClone(openApiDocument(API_ORIGIN))
    await expect(SwaggerParser.validate(document as never)).resolves.toBeTruthy()
    expect(document.openapi).toBe('3.1.0')
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`))
    for (const expected of [
      'GET /api/v1/me',
      'GET /api/v1/categories',
      'GET /api/v1/locations',
      'POST /api/v1/previews',
      'POST /api/v1/exports',
      'GET /api/v1/exports',
      'GET /api/v1/exports/{id}',
      'POST /api/v1/exports/{id}/resume',
      'POST /api/v1/exports/{id}/enrichments',
      'DELETE /api/v1/exports/{id}',
      'GET /api/v1/do-not-contact',
      'POST /api/v1/do-not-contact',
      'DELETE /api/v1/do-not-contact/{id}',
    ]) {
      expect(operations).toContain(expected)
    }
  })

  test('is served without a key at /api/v1/openapi.json', async () => {
    const response = await appFetch(`${API_ORIGIN}/api/v1/openapi.json`)
    expect(response.status).toBe(200)
    const served = (await response.json()) as { paths: object; servers: Array<{ url: string }> }
    expect(served.servers[0]!.url).toBe(API_ORIGIN)
    expect(Object.keys(served.paths)).toEqual(Object.keys(openApiDocument().paths ?? {}))
  })
})

describe('authentication', () => {
  test('a missing, malformed, unknown or revoked key is 401 invalid_api_key, and a session cookie opens nothing', async () => {
    const { user, key, keyId } = await createApiUser(admin)
    const attempts = [
      createApiClient(null),
      createApiClient('la_short'),
      createApiClient(`la_${'A'.repeat(40)}`),
      createApiClient(null, { Cookie: 'sb-access-token=anything; lng=fr' }),
      createApiClient(null, { Authorization: `Basic ${key}` }),
    ]
    for (const api of attempts) {
      const { response, error } = await api.GET('/api/v1/me')
      expect(response.status).toBe(401)
      expect(response.headers.get('Content-Type')).toMatch(/^application\/problem\+json/)
      expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' })
    }
    const api = createApiClient(key)
    expect((await api.GET('/api/v1/me')).data).toMatchObject({ user_id: user.id, email: user.email, plan: 'free_trial', credits: { remaining: 100 } })
    expect(await revokeApiKey(user, keyId)).toBe(true)
    // Revocation holds on the very next request.
    expect((await api.GET('/api/v1/me')).response.status).toBe(401)
  })

  test('only a hash of the key is stored, and last use is recorded', async () => {
    const { key, keyId, api } = await createApiUser(admin)
    expect(key).toMatch(/^la_[0-9A-Za-z]{40}$/)
    await api.GET('/api/v1/me')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const { rows } = await admin.query('select * from public.api_keys where id = $1', [keyId])
    expect(JSON.stringify(rows[0])).not.toContain(key.slice(8))
    expect(rows[0].prefix).toBe(key.slice(0, 8))
    expect(rows[0].last_used_at).not.toBeNull()
  })
})

describe('requests and answers', () => {
  test('every answer carries RateLimit-* headers; past the limit, 429 rate_limited with Retry-After', async () => {
    const { api } = await createApiUser(admin)
    const first = await api.GET('/api/v1/me')
    expect(first.response.headers.get('RateLimit-Limit')).toBe('40')
    expect(first.response.headers.get('RateLimit-Remaining')).toBe('39')
    expect(Number(first.response.headers.get('RateLimit-Reset'))).toBeGreaterThan(0)
    for (let i = 1; i < 40; i += 1) expect((await api.GET('/api/v1/me')).response.status).toBe(200)
    const refused = await api.GET('/api/v1/me')
    expect(refused.response.status).toBe(429)
    expect(refused.error).toMatchObject({ code: 'rate_limited' })
    expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(refused.response.headers.get('RateLimit-Remaining')).toBe('0')
    // Per key: the same user's other key is not refused.
    const other = await createApiUser(admin)
    expect((await other.api.GET('/api/v1/me')).response.status).toBe(200)
  })

  test('bad JSON is 400, another content type 415, an invalid field 422 with its path, an unknown path 404, a wrong method 405', async () => {
    const { key } = await createApiUser(admin)
    const post = (body: string, type = 'application/json') =>
      appFetch(`${API_ORIGIN}/api/v1/previews`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': type }, body })
    const badJson = await post('{"criteria":')
    expect(badJson.status).toBe(400)
    expect(await badJson.json()).toMatchObject({ code: 'bad_json', status: 400, type: expect.stringContaining('/developers#error-bad_json') })
    expect((await post('criteria=x', 'application/x-www-form-urlencoded')).status).toBe(415)
    const invalid = await post(JSON.stringify({ criteria: { country: 42 } }))
    expect(invalid.status).toBe(422)
    expect(await invalid.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.criteria.country' }] })
    const nul = await post(JSON.stringify({ criteria: { country: 'Fr\u0000ance' } }))
    expect(nul.status).toBe(400)
    const unknown = await appFetch(`${API_ORIGIN}/api/v1/nothing-here`, { headers: { Authorization: `Bearer ${key}` } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'not_found' })
    const wrongMethod = await appFetch(`${API_ORIGIN}/api/v1/me`, { method: 'DELETE', headers: { Authorization: `Bearer ${key}` } })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('Allow')).toBe('GET')
  })

  test('details follow Accept-Language; codes do not', async () => {
    const fr = await appFetch(`${API_ORIGIN}/api/v1/me`, { headers: { 'Accept-Language': 'fr-FR' } })
    expect(await fr.json()).toMatchObject({ code: 'invalid_api_key', detail: expect.stringContaining('Clé d’API') })
  })
})

describe('reference data', () => {
  test('categories match in both languages; locations need their parents', async () => {
    const { api } = await createApiUser(admin)
    const fr = await api.GET('/api/v1/categories', { params: { query: { lang: 'fr', q: 'bakery' } } })
    expect(fr.data?.data[0]).toMatchObject({ id: 'shop-bakery', label: 'Boulangerie' })
    const regions = await api.GET('/api/v1/locations', { params: { query: { type: 'region', country: 'France', q: 'bret' } } })
    expect(regions.data?.data.map((place) => place.name)).toContain('Bretagne')
    const orphan = await api.GET('/api/v1/locations', { params: { query: { type: 'department' } } })
    expect(orphan.response.status).toBe(422)
    expect(orphan.error?.errors?.[0]?.path).toBe('query.country')
  })
})

describe('previews and exports', () => {
  test('a preview is free and estimates the export; the plan rules of the form apply', async () => {
    const { user, api } = await createApiUser(admin, 50)
    const preview = await api.POST('/api/v1/previews', { body: { criteria: BREST, enrichments: ['phone', 'email'] } })
    expect(preview.response.status).toBe(200)
    expect(preview.data!.count).toBeGreaterThan(0)
    expect(preview.data!.results.length).toBeLessThanOrEqual(20)
    expect(preview.data!.source).toBe('demo')
    expect(preview.data!.estimate!.max_credits).toBe(preview.data!.estimate!.leads * 2)
    // Free trial: a department is required (SPEC §5), as on the search page.
    const refused = await api.POST('/api/v1/previews', { body: { criteria: { sector: 'shop-bakery', country: 'France' } } })
    expect(refused.response.status).toBe(403)
    expect(refused.error?.code).toBe('plan_restricted')
    expect((await ledger(user.id)).remaining).toBe(50)
  })

  test('an export is created once per Idempotency-Key, followed to its end, and another user sees 404', async () => {
    const { user, api } = await createApiUser(admin, 200)
    const body = { name: 'Bakeries – Brest', criteria: BREST, enrichments: ['phone' as const], max_leads: 5 }
    const headers = { 'Idempotency-Key': 'order-42' }
    const created = await api.POST('/api/v1/exports', { body, params: { header: headers } })
    expect(created.response.status).toBe(202)
    const id = created.data!.id
    expect(created.data).toMatchObject({ name: body.name, status: 'processing', enrichments: ['phone'], completed_at: null })
    const replay = await api.POST('/api/v1/exports', { body, params: { header: headers } })
    expect(replay.response.status).toBe(200)
    expect(replay.data!.id).toBe(id)
    const conflict = await api.POST('/api/v1/exports', { body: { ...body, name: 'Other' }, params: { header: headers } })
    expect(conflict.response.status).toBe(409)
    expect(conflict.error?.code).toBe('idempotency_conflict')
    expect((await ledger(user.id)).exports).toBe(1)

    await processExport(id, { enrichers: createDefaultEnrichers(parseEnv(process.env)) })
    const done = await api.GET('/api/v1/exports/{id}', { params: { path: { id } } })
    expect(done.data).toMatchObject({ id, status: 'completed', lead_count: 5, progress: { phase: 'done' } })
    expect(done.data!.completed_at).not.toBeNull()
    const listed = await api.GET('/api/v1/exports', { params: { query: { status: 'completed' } } })
    expect(listed.data!.data.map((exp) => exp.id)).toEqual([id])

    const other = await createApiUser(admin)
    for (const call of [
      other.api.GET('/api/v1/exports/{id}', { params: { path: { id } } }),
      other.api.POST('/api/v1/exports/{id}/resume', { params: { path: { id } } }),
      other.api.POST('/api/v1/exports/{id}/enrichments', { params: { path: { id } }, body: { enrichments: ['website'] } }),
      other.api.DELETE('/api/v1/exports/{id}', { params: { path: { id } } }),
    ]) {
      const { response, error } = await call
      expect(response.status).toBe(404)
      expect(error?.code).toBe('not_found')
    }
    const resumed = await api.POST('/api/v1/exports/{id}/resume', { params: { path: { id } } })
    expect(resumed.response.status).toBe(409)
    expect(resumed.error?.code).toBe('not_resumable')
    const added = await api.POST('/api/v1/exports/{id}/enrichments', { params: { path: { id } }, body: { enrichments: ['website'] } })
    expect(added.response.status).toBe(202)
    expect(added.data!.enrichments).toEqual(['phone', 'website'])
    expect((await api.DELETE('/api/v1/exports/{id}', { params: { path: { id } } })).response.status).toBe(204)
    expect((await api.GET('/api/v1/exports/{id}', { params: { path: { id } } })).response.status).toBe(404)
  })

  test('an export without credits is 402, with a cap over the limit 422, and pages of exports chain by cursor', async () => {
    const broke = await createApiUser(admin, 0)
    const refused = await broke.api.POST('/api/v1/exports', { body: { name: 'x', criteria: BREST, enrichments: ['phone'] } })
    expect(refused.response.status).toBe(402)
    expect(refused.error?.code).toBe('insufficient_credits')
    const { api } = await createApiUser(admin, 100)
    const tooMany = await api.POST('/api/v1/exports', { body: { name: 'x', criteria: BREST, enrichments: ['phone'], max_leads: 10_000_000 } })
    expect(tooMany.response.status).toBe(422)
    expect(tooMany.error?.errors?.[0]?.path).toBe('body.max_leads')
    const ids: string[] = []
    for (let i = 0; i < 3; i += 1) ids.unshift((await api.POST('/api/v1/exports', { body: { name: `n${i}`, criteria: BREST, enrichments: ['phone'] } })).data!.id)
    const first = await api.GET('/api/v1/exports', { params: { query: { limit: 2 } } })
    const second = await api.GET('/api/v1/exports', { params: { query: { limit: 2, cursor: first.data!.next_cursor! } } })
    expect([...first.data!.data, ...second.data!.data].map((exp) => exp.id)).toEqual(ids)
    expect(second.data!.next_cursor).toBeNull()
    const tampered = await api.GET('/api/v1/exports', { params: { query: { cursor: 'bm90LWEtY3Vyc29y' } } })
    expect(tampered.response.status).toBe(400)
    expect(tampered.error?.code).toBe('invalid_cursor')
  })
})

describe('do-not-contact', () => {
  test('entries are added all or nothing, listed, removed; another user cannot remove them', async () => {
    const { api } = await createApiUser(admin)
    const rejected = await api.POST('/api/v1/do-not-contact', { body: { entries: ['contact@example.fr', 'not an entry'] } })
    expect(rejected.response.status).toBe(422)
    expect(rejected.error?.errors).toEqual([{ path: 'body.entries.1', message: expect.any(String) }])
    const added = await api.POST('/api/v1/do-not-contact', { body: { entries: ['Contact@Example.fr', '@competitor.fr', '04 78 00 00 00'] } })
    expect(added.response.status).toBe(201)
    expect(added.data).toEqual({ added: 3 })
    const listed = await api.GET('/api/v1/do-not-contact')
    expect(listed.data!.data.map((entry) => `${entry.kind}:${entry.value}`).sort()).toEqual(['domain:competitor.fr', 'email:contact@example.fr', 'phone:+33478000000'])
    const id = listed.data!.data[0]!.id
    const other = await createApiUser(admin)
    expect((await other.api.DELETE('/api/v1/do-not-contact/{id}', { params: { path: { id } } })).response.status).toBe(404)
    expect((await api.DELETE('/api/v1/do-not-contact/{id}', { params: { path: { id } } })).response.status).toBe(204)
    expect((await api.GET('/api/v1/do-not-contact')).data!.data).toHaveLength(2)
  })
})
