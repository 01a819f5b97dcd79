// Webhook secret rotation with an overlap (Standard Webhooks): while it lasts, a delivery carries a signature with
// the new secret and one with the previous; after it, or with no overlap, only the new one. Checked by a loopback
// receiver, through the API client typed from the document.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { startWebhookDelivery, type WebhookDelivery } from '#app/.server/webhooks/delivery.ts'
import { createApiUser, type ApiClient } from '#tests/support/api-client.ts'
import { startWebhookReceiver, verifyDelivery, type ReceivedDelivery, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

let admin: pg.Pool
let receiver: WebhookReceiver
let boss: PgBoss
let consumer: WebhookDelivery

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.WEBHOOK_QUEUE = `webhook-rotation-${randomUUID().slice(0, 8)}`
  process.env.WEBHOOK_CONCURRENCY = '2'
  process.env.RATE_LIMIT_WEBHOOK_SEND = '100/600'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  receiver = await startWebhookReceiver()
  process.env.WEBHOOK_ALLOW_HOSTS = receiver.host
  boss = createBoss({ worker: true, max: 3 })
  await boss.start()
  consumer = await startWebhookDelivery(boss, { log: () => {} })
})
afterAll(async () => {
  await consumer?.stop()
  await boss?.stop({ graceful: false }).catch(() => {})
  await receiver.close()
  await admin.end()
  await closeDb()
})

async function createEndpoint(api: ApiClient, path: string) {
  const { data, response } = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(path), events: ['export.completed'] } })
  expect(response.status).toBe(201)
  return data as NonNullable<typeof data> & { secret: string }
}

/** Sends a test event and returns its delivery, as received. */
async function testDelivery(api: ApiClient, endpointId: string, path: string, count: number): Promise<ReceivedDelivery> {
  expect((await api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: endpointId } } })).response.status).toBe(202)
  return (await receiver.waitFor(path, count)).at(-1)!
}

const signatures = (delivery: ReceivedDelivery) => delivery.headers['webhook-signature']!.split(' ')
/** The delivery with only one of its signatures: each must verify on its own. */
const withSignature = (delivery: ReceivedDelivery, signature: string): ReceivedDelivery => ({ ...delivery, headers: { ...delivery.headers, 'webhook-signature': signature } })

describe('webhook secret rotation', () => {
  test('with an overlap both secrets sign (the new one first), after it only the new one', async () => {
    const { api } = await createApiUser(admin)
    const endpoint = await createEndpoint(api, '/rotate-overlap')
    const rotated = await api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } }, body: { overlap_seconds: 3600 } })
    expect(rotated.response.status).toBe(200)
    expect(rotated.response.headers.get('cache-control')).toBe('no-store')
    const { secret, previous_secret_expires_at: expiresAt } = rotated.data!
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secret).not.toBe(endpoint.secret)
    const inOneHour = Date.parse(expiresAt!) - Date.now()
    expect(inOneHour).toBeGreaterThan(3_000_000)
    expect(inOneHour).toBeLessThanOrEqual(3_600_000)
    // The old secret is never answered again, by any read.
    for (const answer of [JSON.stringify(rotated.data), JSON.stringify((await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: endpoint.id } } })).data), JSON.stringify((await api.GET('/api/v1/webhook-endpoints', {})).data)])
      expect(answer).not.toContain(endpoint.secret.slice(6))

    const during = await testDelivery(api, endpoint.id, '/rotate-overlap', 1)
    const [first, second, ...rest] = signatures(during)
    expect(rest).toEqual([])
    expect(first).toMatch(/^v1,/)
    expect(second).toMatch(/^v1,/)
    expect(verifyDelivery(secret, withSignature(during, first!))).toMatchObject({ type: 'test' })
    expect(verifyDelivery(endpoint.secret, withSignature(during, second!))).toMatchObject({ type: 'test' })
    expect(() => verifyDelivery(secret, withSignature(during, second!))).toThrow()

    // The overlap is over: only the new secret signs.
    await admin.query(`update public.webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = $1`, [endpoint.id])
    const after = await testDelivery(api, endpoint.id, '/rotate-overlap', 2)
    expect(signatures(after)).toHaveLength(1)
    expect(verifyDelivery(secret, after)).toMatchObject({ type: 'test' })
    expect(() => verifyDelivery(endpoint.secret, after)).toThrow()
  }, 30_000)

  test('without overlap only the new secret signs; the default overlap is 24 h', async () => {
    const { api } = await createApiUser(admin)
    const endpoint = await createEndpoint(api, '/rotate-none')
    const byDefault = await api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } }, body: {} })
    expect(byDefault.response.status).toBe(200)
    const inADay = Date.parse(byDefault.data!.previous_secret_expires_at!) - Date.now()
    expect(inADay).toBeGreaterThan(86_000_000)
    expect(inADay).toBeLessThanOrEqual(86_400_000)
    const rotated = await api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } }, body: { overlap_seconds: 0 } })
    expect(rotated.response.status).toBe(200)
    expect(rotated.data!.previous_secret_expires_at).toBeNull()
    const { rows } = await admin.query('select previous_secret from public.webhook_endpoints where id = $1', [endpoint.id])
    expect(rows[0].previous_secret).toBeNull()
    const delivery = await testDelivery(api, endpoint.id, '/rotate-none', 1)
    expect(signatures(delivery)).toHaveLength(1)
    expect(verifyDelivery(rotated.data!.secret, delivery)).toMatchObject({ type: 'test' })
    expect(() => verifyDelivery(byDefault.data!.secret, delivery)).toThrow()
  }, 30_000)

  test("another user's endpoint is not found, a bad overlap is refused, and the previous secret is not readable by users", async () => {
    const owner = await createApiUser(admin)
    const other = await createApiUser(admin)
    const endpoint = await createEndpoint(owner.api, '/rotate-other')
    const foreign = await other.api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } }, body: { overlap_seconds: 60 } })
    expect(foreign.response.status).toBe(404)
    expect(foreign.error).toMatchObject({ code: 'not_found' })
    const { rows } = await admin.query('select secret, previous_secret from public.webhook_endpoints where id = $1', [endpoint.id])
    expect(rows[0]).toEqual({ secret: endpoint.secret, previous_secret: null })
    for (const overlap of [-1, 604_801, 1.5])
      expect((await owner.api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } }, body: { overlap_seconds: overlap } })).response.status).toBe(422)
    const { rows: grants } = await admin.query(
      `select has_column_privilege('authenticated', 'public.webhook_endpoints', 'previous_secret', 'select') as previous, has_column_privilege('authenticated', 'public.webhook_endpoints', 'previous_secret_expires_at', 'select') as expires`,
    )
    expect(grants[0]).toEqual({ previous: false, expires: false })
  }, 30_000)
})
