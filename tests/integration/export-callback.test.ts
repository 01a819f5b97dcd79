// An export's callback (issue 28 item 10): POST /api/v1/exports with `webhook_url` answers the callback's secret, and
// the export's end is delivered there once, signed like any webhook (checked by a loopback receiver with
// standardwebhooks' own verify). The callback is no subscription: not listed, not counted, not reachable by id.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { startWebhookDelivery, type WebhookDelivery } from '#app/.server/webhooks/delivery.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'
import { createApiUser, type ApiClient } from '#tests/support/api-client.ts'
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

let admin: pg.Pool
let receiver: WebhookReceiver
let boss: PgBoss
let consumer: WebhookDelivery

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.WEBHOOK_QUEUE = `export-callback-${randomUUID().slice(0, 8)}`
  process.env.WEBHOOK_CONCURRENCY = '2'
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

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }
const exportBody = (webhookUrl?: string) => ({ name: 'Bakeries – Brest', criteria: BREST, enrichments: ['phone' as const], max_leads: 3, ...(webhookUrl ? { webhook_url: webhookUrl } : {}) })

const runExport = (id: string) => processExport(id, { enrichers: createDefaultEnrichers(parseEnv(process.env)) })

const callbacksOf = async (exportId: string) =>
  (await admin.query<{ id: string; url: string; secret: string }>('select id, url, secret from public.webhook_endpoints where export_id = $1', [exportId])).rows

const countExports = async (userId: string) => (await admin.query<{ n: number }>('select count(*)::int as n from public.exports where user_id = $1', [userId])).rows[0]!.n

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Lets the pump and the consumer run a while, so that a second delivery, if one were owed, would have arrived. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500))

async function createWithCallback(api: ApiClient, path: string, headers: Record<string, string> = {}) {
  const created = await api.POST('/api/v1/exports', { body: exportBody(receiver.url(path)), params: { header: headers } })
  expect(created.response.status, JSON.stringify(created.error)).toBe(202)
  return created
}

describe('an export with webhook_url', () => {
  test('gets one signed export.completed at its URL, verified with the secret of the answer; GET shows the URL, never the secret', async () => {
    const { api } = await createApiUser(admin, 100)
    const created = await createWithCallback(api, '/callback-once')
    const id = created.data!.id
    expect(created.response.headers.get('cache-control')).toBe('no-store')
    expect(created.data).toMatchObject({ webhook_url: receiver.url('/callback-once'), webhook: { url: receiver.url('/callback-once') } })
    const secret = created.data!.webhook!.secret
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect((await callbacksOf(id)).map((callback) => callback.secret)).toEqual([secret])

    const read = await api.GET('/api/v1/exports/{id}', { params: { path: { id } } })
    expect(read.data).toMatchObject({ id, webhook_url: receiver.url('/callback-once') })
    expect(JSON.stringify(read.data)).not.toContain('whsec_')
    expect(JSON.stringify((await api.GET('/api/v1/exports', {})).data)).not.toContain('whsec_')

    await runExport(id)
    const [delivery, ...more] = await receiver.waitFor('/callback-once', 1)
    expect(more).toEqual([])
    const event = verifyDelivery(secret, delivery!)
    expect(event).toMatchObject({ type: 'export.completed', data: { export: { id, status: 'completed' } } })
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_/)

    // Its log, as any delivery's: one succeeded delivery with its attempt.
    const [callback] = await callbacksOf(id)
    const logOf = async () =>
      (
        await admin.query(
          `select d.event_type, d.state, (select count(*)::int from public.webhook_attempts a where a.delivery_id = d.id) as attempts
           from public.webhook_deliveries d where d.endpoint_id = $1`,
          [callback!.id],
        )
      ).rows
    // The receiver has the request a moment before the worker records its answer.
    expect(await until(logOf, (log) => log[0]?.state !== 'delivering')).toEqual([{ event_type: 'export.completed', state: 'succeeded', attempts: 1 }])

    // Completed again (more enrichments): the callback was told already.
    await admin.query(`update public.exports set status = 'processing' where id = $1`, [id])
    await admin.query(`update public.exports set status = 'completed' where id = $1`, [id])
    await settle()
    expect(receiver.received.filter((received) => received.path === '/callback-once')).toHaveLength(1)
  }, 60_000)

  test('a private, loopback or metadata address is 422 on body.webhook_url, and no export is made', async () => {
    const { user, api } = await createApiUser(admin, 100)
    const guardMessages = [en.webhooks.errors.url_blocked, en.webhooks.errors.url_https_required, fr.webhooks.errors.url_blocked, fr.webhooks.errors.url_https_required]
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'https://10.0.0.8/callback', 'http://127.0.0.1:9/callback', 'https://[::1]/callback', 'https://localhost/callback']) {
      const { response, error } = await api.POST('/api/v1/exports', { body: exportBody(url) })
      expect(response.status, url).toBe(422)
      expect(error, url).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.webhook_url' }] })
      // The guard's reason, not "unknown field".
      expect(guardMessages, url).toContain(error!.errors![0]!.message)
    }
    for (const url of ['not a url', 'ftp://example.com/x']) {
      const { response, error } = await api.POST('/api/v1/exports', { body: exportBody(url) })
      expect(response.status, url).toBe(422)
      expect(error!.errors![0]!.path, url).toBe('body.webhook_url')
    }
    expect(await countExports(user.id)).toBe(0)
    // The allowed (loopback receiver) URL of the same shape is taken.
    await createWithCallback(api, '/callback-allowed')
    expect(await countExports(user.id)).toBe(1)
  }, 30_000)

  test('a replay (same Idempotency-Key and body) answers the same export and secret, without a second callback', async () => {
    const { user, api } = await createApiUser(admin, 100)
    const headers = { 'Idempotency-Key': `order-${randomUUID()}` }
    const created = await createWithCallback(api, '/callback-replay', headers)
    const replay = await api.POST('/api/v1/exports', { body: exportBody(receiver.url('/callback-replay')), params: { header: headers } })
    expect(replay.response.status).toBe(200)
    expect(replay.data).toMatchObject({ id: created.data!.id, webhook: created.data!.webhook })
    // The callback URL is part of the command: another one with the same key is another command.
    const other = await api.POST('/api/v1/exports', { body: exportBody(receiver.url('/callback-elsewhere')), params: { header: headers } })
    expect(other.response.status).toBe(409)
    expect(other.error?.code).toBe('idempotency_conflict')
    expect(await countExports(user.id)).toBe(1)
    expect(await callbacksOf(created.data!.id)).toHaveLength(1)

    await runExport(created.data!.id)
    const [delivery] = await receiver.waitFor('/callback-replay', 1)
    expect(verifyDelivery(created.data!.webhook!.secret, delivery!)).toMatchObject({ type: 'export.completed' })
    await settle()
    expect(receiver.received.filter((received) => received.path === '/callback-replay')).toHaveLength(1)
    expect(receiver.received.filter((received) => received.path === '/callback-elsewhere')).toHaveLength(0)
  }, 60_000)

  test('the callback is no subscription: not listed, not counted against the cap, not found by id; subscriptions still get the event', async () => {
    const { api } = await createApiUser(admin, 100)
    const subscription = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url('/subscribed'), events: ['export.completed'] } })
    expect(subscription.response.status).toBe(201)
    const subscriptionSecret = (subscription.data as { secret: string }).secret
    const created = await createWithCallback(api, '/callback-hidden')
    const [callback] = await callbacksOf(created.data!.id)
    expect(callback).toBeDefined()

    const { data: list } = await api.GET('/api/v1/webhook-endpoints')
    expect(list!.data.map((endpoint) => endpoint.id)).toEqual([subscription.data!.id])
    for (const call of [
      api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: callback!.id } } }),
      api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: callback!.id } } }),
      api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: callback!.id } }, body: {} }),
      api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id: callback!.id } } }),
    ])
      expect((await call).response.status).toBe(404)
    expect(await callbacksOf(created.data!.id)).toEqual([callback])
    // A subscription to the callback's URL is not "the same URL": it is created.
    const sameUrl = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url('/callback-hidden'), events: ['export.failed'] } })
    expect(sameUrl.response.status).toBe(201)
    for (let i = 0; i < 8; i += 1) expect((await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(`/cap-${i}`), events: ['export.failed'] } })).response.status).toBe(201)

    // The subscription and the callback each get the export's end; the callback only its own export's.
    const plain = await api.POST('/api/v1/exports', { body: exportBody() })
    expect(plain.response.status).toBe(202)
    await runExport(plain.data!.id)
    await runExport(created.data!.id)
    const subscribed = await receiver.waitFor('/subscribed', 2)
    expect(subscribed.map((delivery) => verifyDelivery(subscriptionSecret, delivery).data.export!.id).sort()).toEqual([plain.data!.id, created.data!.id].sort())
    const [delivery] = await receiver.waitFor('/callback-hidden', 1)
    expect(verifyDelivery(created.data!.webhook!.secret, delivery!).data.export!.id).toBe(created.data!.id)
    await settle()
    expect(receiver.received.filter((received) => received.path === '/callback-hidden')).toHaveLength(1)
  }, 60_000)
})
