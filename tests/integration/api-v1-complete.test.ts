// Issue 28 item 10: what an integrator does without the UI, through the client typed from the OpenAPI document (every
// answer checked against it): saved searches created, changed and deleted; webhook endpoints changed, their delivery
// log paged and a delivery sent again, one endpoint per URL; the credit history; /locations past 100 and never in the
// Accept-Language. Another user's ids are 404 everywhere.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { createApiClient, createApiUser } from '#tests/support/api-client.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

let admin: pg.Pool
let receiver: WebhookReceiver
beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  receiver = await startWebhookReceiver()
  process.env.WEBHOOK_ALLOW_HOSTS = receiver.host
})
afterAll(async () => {
  await receiver.close()
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }

describe('saved searches', () => {
  test('create (with a schedule), read, change, pause, delete; the search page rules; another user gets 404', async () => {
    const { api } = await createApiUser(admin)
    const other = await createApiUser(admin)
    const created = await api.POST('/api/v1/saved-searches', {
      body: { name: 'Bakeries – Brest', criteria: BREST, filters: { has_website: true }, enrichments: ['technologies', 'email'], schedule: { kind: 'weekly', weekday: 1, hour: 7, time_zone: 'Europe/Paris' } },
    })
    expect(created.response.status, JSON.stringify(created.error)).toBe(201)
    const saved = created.data!
    // The toggle rule of the form: technologies needs website (so it is dropped here).
    expect(saved).toMatchObject({ name: 'Bakeries – Brest', filters: { has_website: true }, enrichments: ['email'], schedule: { kind: 'weekly', weekday: 1, hour: 7, time_zone: 'Europe/Paris' }, paused: false })
    expect(saved.next_run_at).not.toBeNull()

    const unknownPlace = await api.POST('/api/v1/saved-searches', { body: { name: 'Nowhere', criteria: { ...BREST, city: 'Atlantis' }, enrichments: ['email'] } })
    expect(unknownPlace.response.status).toBe(422)
    expect(unknownPlace.error).toMatchObject({ code: 'invalid_location', errors: [{ path: 'body.criteria.city' }] })
    const badSchedule = await api.POST('/api/v1/saved-searches', { body: { name: 'Weekly', criteria: BREST, enrichments: ['email'], schedule: { kind: 'weekly' } } })
    expect(badSchedule.response.status).toBe(422)
    expect(badSchedule.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.schedule.weekday' }] })
    // A refused schedule saved nothing.
    expect((await api.GET('/api/v1/saved-searches')).data!.data.map((s) => s.id)).toEqual([saved.id])

    const id = saved.id
    expect((await api.GET('/api/v1/saved-searches/{id}', { params: { path: { id } } })).data).toEqual(saved)
    const changed = await api.PATCH('/api/v1/saved-searches/{id}', { params: { path: { id } }, body: { name: 'Bakeries – monthly', credit_budget: 50, schedule: { kind: 'monthly', day: 15 } } })
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200)
    expect(changed.data).toMatchObject({ name: 'Bakeries – monthly', credit_budget: 50, enrichments: saved.enrichments, schedule: { kind: 'monthly', day: 15, weekday: null, hour: 7, time_zone: 'Europe/Paris' } })
    const paused = await api.PATCH('/api/v1/saved-searches/{id}', { params: { path: { id } }, body: { paused: true } })
    expect(paused.data).toMatchObject({ paused: true, next_run_at: null, name: 'Bakeries – monthly' })
    const noEnrichment = await api.PATCH('/api/v1/saved-searches/{id}', { params: { path: { id } }, body: { enrichments: [] as never } })
    expect(noEnrichment.response.status).toBe(422)
    const badZone = await api.PATCH('/api/v1/saved-searches/{id}', { params: { path: { id } }, body: { schedule: { kind: 'monthly', day: 1, time_zone: 'Mars/Olympus' } } })
    expect(badZone.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.schedule.time_zone' }] })

    for (const call of [
      other.api.GET('/api/v1/saved-searches/{id}', { params: { path: { id } } }),
      other.api.PATCH('/api/v1/saved-searches/{id}', { params: { path: { id } }, body: { name: 'Mine now' } }),
      other.api.DELETE('/api/v1/saved-searches/{id}', { params: { path: { id } } }),
    ]) {
      expect((await call).response.status).toBe(404)
    }
    expect((await api.GET('/api/v1/saved-searches/{id}', { params: { path: { id } } })).data?.name).toBe('Bakeries – monthly')
    expect((await api.DELETE('/api/v1/saved-searches/{id}', { params: { path: { id } } })).response.status).toBe(204)
    expect((await api.GET('/api/v1/saved-searches/{id}', { params: { path: { id } } })).response.status).toBe(404)
    expect((await api.DELETE('/api/v1/saved-searches/{id}', { params: { path: { id } } })).response.status).toBe(404)
  })
})

describe('webhook endpoints', () => {
  test('one endpoint per URL: creating it again answers the existing one (200, no secret), never a second subscription', async () => {
    const { api } = await createApiUser(admin)
    const url = receiver.url(`/dup-${randomUUID()}`)
    const first = await api.POST('/api/v1/webhook-endpoints', { body: { url, events: ['export.completed'] } })
    expect(first.response.status).toBe(201)
    const again = await api.POST('/api/v1/webhook-endpoints', { body: { url, events: ['export.failed'] } })
    expect(again.response.status).toBe(200)
    expect(again.data).toMatchObject({ id: first.data!.id, events: ['export.completed'] })
    expect(again.data).not.toHaveProperty('secret')
    expect(again.response.headers.get('Location')).toBe(`/api/v1/webhook-endpoints/${first.data!.id}`)
    expect((await api.GET('/api/v1/webhook-endpoints')).data!.data).toHaveLength(1)
    // Several at once still make one.
    const url2 = receiver.url(`/dup-${randomUUID()}`)
    const burst = await Promise.all(Array.from({ length: 5 }, () => api.POST('/api/v1/webhook-endpoints', { body: { url: url2, events: ['export.completed'] } })))
    expect(burst.map((answer) => answer.response.status).sort()).toEqual([200, 200, 200, 200, 201])
    expect(new Set(burst.map((answer) => answer.data!.id)).size).toBe(1)
  })

  test('change url, events and enabled; the URL is guarded and unique; another user gets 404', async () => {
    const { api } = await createApiUser(admin)
    const other = await createApiUser(admin)
    const a = (await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(`/a-${randomUUID()}`), events: ['export.completed'] } })).data!
    const b = (await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(`/b-${randomUUID()}`), events: ['export.completed'] } })).data!
    const newUrl = receiver.url(`/c-${randomUUID()}`)
    const changed = await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id: a.id } }, body: { url: newUrl, events: ['export.failed', 'export.completed'], enabled: false } })
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200)
    expect(changed.data).toMatchObject({ id: a.id, url: newUrl, events: ['export.completed', 'export.failed'], enabled: false, disabled_reason: 'user' })
    const back = await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id: a.id } }, body: { enabled: true } })
    expect(back.data).toMatchObject({ url: newUrl, enabled: true, disabled_reason: null })
    const taken = await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id: b.id } }, body: { url: newUrl } })
    expect(taken.response.status).toBe(409)
    expect(taken.error).toMatchObject({ errors: [{ path: 'body.url' }] })
    const privateUrl = await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id: b.id } }, body: { url: 'https://10.0.0.1/hook' } })
    expect(privateUrl.response.status).toBe(422)
    expect((await other.api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id: a.id } }, body: { enabled: false } })).response.status).toBe(404)
    expect((await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: a.id } } })).data?.enabled).toBe(true)
  })

  test('the delivery log pages through every delivery; redeliver a settled one (409 while on its way); another user gets 404', async () => {
    const { user, api } = await createApiUser(admin)
    const other = await createApiUser(admin)
    const endpoint = (await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(`/log-${randomUUID()}`), events: ['export.completed'] } })).data!
    for (let i = 0; i < 3; i++) {
      const { rows } = await admin.query<{ id: string }>(`insert into public.exports (user_id, name, status) values ($1, 'Bakeries', 'processing') returning id`, [user.id])
      await admin.query(`update public.exports set status = 'completed', completed_at = now() where id = $1`, [rows[0]!.id])
    }
    const page1 = await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id: endpoint.id }, query: { limit: 2 } } })
    expect(page1.response.status, JSON.stringify(page1.error)).toBe(200)
    expect(page1.data!.data).toHaveLength(2)
    expect(page1.data!.data[0]).toMatchObject({ endpoint_id: endpoint.id, event_type: 'export.completed', state: 'pending', attempts: [] })
    const page2 = await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id: endpoint.id }, query: { limit: 2, cursor: page1.data!.next_cursor! } } })
    expect(page2.data!.data).toHaveLength(1)
    expect(page2.data!.next_cursor).toBeNull()
    const ids = [...page1.data!.data, ...page2.data!.data].map((delivery) => delivery.id)
    expect(new Set(ids).size).toBe(3)
    expect((await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id: endpoint.id }, query: { cursor: 'x' } } })).response.status).toBe(400)
    expect((await other.api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id: endpoint.id } } })).response.status).toBe(404)

    const target = ids[2]!
    const busy = await api.POST('/api/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id: target } } })
    expect(busy.response.status).toBe(409)
    expect(busy.error).toMatchObject({ code: 'delivery_in_flight' })
    await admin.query(`update public.webhook_deliveries set state = 'failed' where id = $1`, [target])
    expect((await other.api.POST('/api/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id: target } } })).response.status).toBe(404)
    const sent = await api.POST('/api/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id: target } } })
    expect(sent.response.status).toBe(202)
    const { rows } = await admin.query<{ message_id: string }>('select message_id from public.webhook_deliveries where id = any($1::uuid[])', [[target, sent.data!.delivery_id]])
    expect(rows).toHaveLength(2)
    expect(rows[0]!.message_id).toBe(rows[1]!.message_id)
  })
})

describe('the credit history', () => {
  test('pages through the ledger, newest first; its sum is the balance; another user sees only theirs', async () => {
    const { user, api } = await createApiUser(admin, 150)
    await admin.query(`select public.apply_credit_change($1, -3, 'adjustment', $2)`, [user.id, `test:${randomUUID()}`])
    const other = await createApiUser(admin)
    const entries: Array<{ id: string; delta: number; balance_after: number; reason: string }> = []
    let cursor: string | undefined
    do {
      const page = await api.GET('/api/v1/credits/history', { params: { query: { limit: 1, ...(cursor ? { cursor } : {}) } } })
      expect(page.response.status, JSON.stringify(page.error)).toBe(200)
      entries.push(...page.data!.data)
      cursor = page.data!.next_cursor ?? undefined
    } while (cursor)
    expect(entries.length).toBeGreaterThanOrEqual(3)
    expect(entries[0]).toMatchObject({ delta: -3, balance_after: 147, reason: 'adjustment' })
    expect(entries.reduce((sum, entry) => sum + entry.delta, 0)).toBe(147)
    expect((await api.GET('/api/v1/me')).data?.credits.remaining).toBe(147)
    const theirs = (await other.api.GET('/api/v1/credits/history')).data!.data
    expect(theirs.some((entry) => entries.some((mine) => mine.id === entry.id))).toBe(false)
    expect((await api.GET('/api/v1/credits/history', { params: { query: { cursor: Buffer.from('["0000-01-01T00:00:00Z","1"]').toString('base64url') } } })).response.status).toBe(400)
  })
})

describe('locations', () => {
  test('pages past 100 with a cursor, and the names never follow Accept-Language', async () => {
    const { key, api } = await createApiUser(admin)
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await api.GET('/api/v1/locations', { params: { query: { type: 'country', ...(cursor ? { cursor } : {}) } } })
      expect(page.response.status, JSON.stringify(page.error)).toBe(200)
      expect(page.data!.data.length).toBeLessThanOrEqual(100)
      seen.push(...page.data!.data.map((place) => place.code ?? place.name))
      cursor = page.data!.next_cursor ?? undefined
    } while (cursor)
    expect(seen.length).toBeGreaterThan(150)
    expect(new Set(seen).size).toBe(seen.length)
    const english = createApiClient(key, { 'Accept-Language': 'en' })
    const french = createApiClient(key, { 'Accept-Language': 'fr' })
    const [en, fr] = await Promise.all([english, french].map((client) => client.GET('/api/v1/locations', { params: { query: { type: 'country', limit: 100 } } })))
    expect(en!.data).toEqual(fr!.data)
    const asked = await english.GET('/api/v1/locations', { params: { query: { type: 'country', lang: 'en', q: 'Germ' } } })
    expect(asked.data!.data[0]).toMatchObject({ name: 'Germany', code: 'DE' })
  })
})

describe('the registry-first search', () => {
  test('NAF lookup by words or code; a preview follows the plan rule of /companies', async () => {
    const { api } = await createApiUser(admin)
    const words = await api.GET('/api/v1/naf-codes', { params: { query: { q: 'boulangerie' } } })
    expect(words.response.status).toBe(200)
    expect(words.data!.data.map((entry) => entry.code)).toContain('10.71C')
    const code = await api.GET('/api/v1/naf-codes', { params: { query: { q: '1071' } } })
    expect(code.data!.data.every((entry) => entry.code.startsWith('10.71'))).toBe(true)
    expect(code.data!.data.length).toBeGreaterThan(0)
    // A free trial needs a department: a region is refused before the registry is asked.
    const region = await api.POST('/api/v1/registry/previews', { body: { naf_codes: ['10.71C'], place: { kind: 'region', code: '53' } } })
    expect(region.response.status).toBe(403)
    expect(region.error).toMatchObject({ code: 'plan_restricted' })
    const nowhere = await api.POST('/api/v1/registry/previews', { body: { naf_codes: ['10.71C'], place: { kind: 'department', code: '00' } } })
    expect(nowhere.response.status).toBe(422)
  })
})
