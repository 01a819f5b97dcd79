// Signed webhooks (../shared/API.md "Webhooks"): the outbox trigger, delivery through the job queue with Standard
// Webhooks signatures checked by a loopback receiver, the retry schedule on an injected clock, restarts, two workers,
// the 3-day disable, the SSRF guard, and the API operations through the client typed from the document.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDb, withUser } from '#app/.server/db.ts'
import { validateEnv } from '#app/.server/env.server.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { HostAllowList } from '#app/.server/enrichment/ssrf.ts'
import { startWebhookDelivery, type WebhookDelivery, type WebhookDeliveryOptions } from '#app/.server/webhooks/delivery.ts'
import { redeliver } from '#app/.server/webhooks/deliveries.ts'
import { checkWebhookUrl } from '#app/.server/webhooks/guard.ts'
import { RETRY_DELAYS_SECONDS } from '#app/domain/webhooks.ts'
import { createApiUser, type ApiClient } from '#tests/support/api-client.ts'
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

let admin: pg.Pool
let receiver: WebhookReceiver
const bosses: PgBoss[] = []

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  // This file's own queue: another file's worker never takes its jobs.
  process.env.WEBHOOK_QUEUE = `webhook-test-${randomUUID().slice(0, 8)}`
  process.env.WEBHOOK_CONCURRENCY = '6'
  // The per-user cap's own test sets it to its default (a quarter of the slots); the others keep 4 per user.
  process.env.WEBHOOK_USER_IN_FLIGHT = '4'
  process.env.RATE_LIMIT_WEBHOOK_SEND = '3/600'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  receiver = await startWebhookReceiver()
  process.env.WEBHOOK_ALLOW_HOSTS = receiver.host
})
afterAll(async () => {
  for (const boss of bosses) await boss.stop({ graceful: false }).catch(() => {})
  await receiver.close()
  await admin.end()
  await closeDb()
})

/** A clock the test moves: real time plus an offset. */
function testClock() {
  let offset = 0
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) }
}

async function startConsumer(options: WebhookDeliveryOptions = {}): Promise<WebhookDelivery> {
  const boss = createBoss({ worker: true, max: 3 })
  bosses.push(boss)
  await boss.start()
  const delivery = await startWebhookDelivery(boss, { log: () => {}, ...options })
  return {
    pump: delivery.pump,
    async stop() {
      await delivery.stop()
      await boss.stop({ graceful: true, timeout: 2_000 })
    },
  }
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function createEndpoint(api: ApiClient, path: string, events = ['export.completed', 'export.failed', 'export.interrupted']) {
  const { data, response, error } = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(path), events: events as never } })
  expect(response.status, JSON.stringify(error)).toBe(201)
  // 201: the new endpoint with its secret (a 200 would be an existing one, without it).
  return data as NonNullable<typeof data> & { secret: string }
}

async function finishedExport(userId: string, status: 'completed' | 'failed' | 'interrupted' = 'completed'): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, lead_count, total_credits_used, enrichment_options) values ($1, 'Bakeries', 'processing', 12, 7, '{"phone":true}') returning id`,
    [userId],
  )
  await admin.query(`update public.exports set status = $2, completed_at = now() where id = $1`, [rows[0]!.id, status])
  return rows[0]!.id
}

interface DeliveryRow {
  id: string
  state: string
  attempt_count: number
  next_attempt_at: Date
}
const deliveryOf = async (endpointId: string) =>
  (await admin.query<DeliveryRow>('select id, state, attempt_count, next_attempt_at from public.webhook_deliveries where endpoint_id = $1 order by created_at, id', [endpointId])).rows
const attemptsOf = async (deliveryId: string) =>
  (await admin.query('select * from public.webhook_attempts where delivery_id = $1 order by attempted_at', [deliveryId])).rows as Array<{ attempted_at: Date; http_status: number | null }>

describe('the API operations', () => {
  test('create (secret once), list, read, delete; another user gets 404; the cap is 409 too_many_endpoints', async () => {
    const { api } = await createApiUser(admin)
    const other = await createApiUser(admin)
    const created = await createEndpoint(api, '/api-ops', ['export.completed'])
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created).toMatchObject({ url: receiver.url('/api-ops'), events: ['export.completed'], enabled: true, disabled_reason: null })
    const { data: list } = await api.GET('/api/v1/webhook-endpoints')
    expect(list!.data.map((endpoint) => endpoint.id)).toEqual([created.id])
    expect(JSON.stringify(list)).not.toContain('whsec_')
    expect((await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: created.id } } })).data).toMatchObject({ id: created.id })
    expect((await other.api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: created.id } } })).response.status).toBe(404)
    expect((await other.api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id: created.id } } })).response.status).toBe(404)
    expect((await other.api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: created.id } } })).response.status).toBe(404)
    expect((await api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id: created.id } } })).response.status).toBe(204)
    expect((await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: created.id } } })).response.status).toBe(404)

    for (let i = 0; i < 10; i += 1) await createEndpoint(api, `/cap-${i}`)
    const refused = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url('/cap-10'), events: ['export.completed'] } })
    expect(refused.response.status).toBe(409)
    expect(refused.error).toMatchObject({ code: 'too_many_endpoints' })
    const page = await api.GET('/api/v1/webhook-endpoints', { params: { query: { limit: 6 } } })
    const rest = await api.GET('/api/v1/webhook-endpoints', { params: { query: { limit: 6, cursor: page.data!.next_cursor! } } })
    expect(new Set([...page.data!.data, ...rest.data!.data].map((endpoint) => endpoint.id)).size).toBe(10)
    expect(rest.data!.next_cursor).toBeNull()
  })

  test('URLs the SSRF guard refuses are 422 on body.url; bad events are 422 too', async () => {
    const { api } = await createApiUser(admin)
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.8/hook', 'https://169.254.169.254/latest', 'https://localhost/hook', 'http://[::1]/x', 'ftp://example.com/x', 'not a url']) {
      const { response, error } = await api.POST('/api/v1/webhook-endpoints', { body: { url, events: ['export.completed'] } })
      expect(response.status, url).toBe(422)
      expect(error!.errors![0]!.path).toBe('body.url')
    }
    const noEvents = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(), events: [] } })
    expect(noEvents.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.events' }] })
    const unknown = await api.POST('/api/v1/webhook-endpoints', { body: { url: receiver.url(), events: ['export.started' as never] } })
    expect(unknown.response.status).toBe(422)
    expect((await api.GET('/api/v1/webhook-endpoints')).data!.data).toEqual([])
  })

  test('in production, http is refused unless the host is allow-listed; a name resolving to a private address is refused', async () => {
    const lookup = async (host: string) => [{ address: host === 'rebind.example.com' ? '192.168.1.4' : '93.184.216.34', family: 4 as const }]
    const network = { allowList: new HostAllowList([receiver.host]), lookup, httpsOnly: true }
    expect(await checkWebhookUrl('http://hooks.example.com/x', network)).toBe('https_required')
    expect(await checkWebhookUrl('https://hooks.example.com/x', network)).toBeNull()
    expect(await checkWebhookUrl('https://rebind.example.com/x', network)).toBe('blocked')
    expect(await checkWebhookUrl(receiver.url(), network)).toBeNull()
    // Not resolvable from here: accepted (each delivery is vetted again when it connects).
    const offline = { ...network, lookup: async () => Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })) }
    expect(await checkWebhookUrl('https://hooks.example.com/x', offline)).toBeNull()
    expect(await checkWebhookUrl('https://metadata.google.internal/x', offline)).toBe('blocked')
  })
})

describe('row-level security', () => {
  test('owners read their endpoints, deliveries and attempts; nobody reads a secret through the user role', async () => {
    const owner = await createApiUser(admin)
    const other = await createApiUser(admin)
    const endpoint = await createEndpoint(owner.api, '/rls')
    await finishedExport(owner.user.id)
    const count = (user: typeof owner.user, table: 'webhook_endpoints' | 'webhook_deliveries') =>
      withUser(user.claims, (trx) => trx.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).then((row) => Number(row.n))
    expect(await count(owner.user, 'webhook_endpoints')).toBe(1)
    expect(await count(owner.user, 'webhook_deliveries')).toBe(1)
    expect(await count(other.user, 'webhook_endpoints')).toBe(0)
    expect(await count(other.user, 'webhook_deliveries')).toBe(0)
    await expect(withUser(owner.user.claims, (trx) => sql`select secret from public.webhook_endpoints`.execute(trx))).rejects.toThrow(/permission denied/)
    await expect(withUser(owner.user.claims, (trx) => sql`update public.webhook_endpoints set url = 'https://evil.example' where id = ${endpoint.id}`.execute(trx))).rejects.toThrow(
      /permission denied/,
    )
    await expect(withUser(owner.user.claims, (trx) => sql`delete from public.webhook_deliveries`.execute(trx))).rejects.toThrow(/permission denied/)
  })
})

describe('delivery', () => {
  test('an export completion is one signed delivery per subscribed endpoint, with the API export object', async () => {
    const consumer = await startConsumer()
    try {
      const { user, api } = await createApiUser(admin)
      const stranger = await createApiUser(admin)
      const subscribed = await createEndpoint(api, '/done', ['export.completed'])
      const failuresOnly = await createEndpoint(api, '/failures', ['export.failed'])
      await createEndpoint(stranger.api, '/stranger', ['export.completed'])
      const exportId = await finishedExport(user.id)
      const [delivery] = await receiver.waitFor('/done', 1)
      const event = verifyDelivery(subscribed.secret, delivery!)
      const { data: expected } = await api.GET('/api/v1/exports/{id}', { params: { path: { id: exportId } } })
      expect(event).toEqual({ type: 'export.completed', timestamp: expect.any(String), data: { export: expected } })
      expect(() => verifyDelivery(failuresOnly.secret, delivery!)).toThrow()
      expect(delivery!.headers['webhook-id']).toMatch(/^msg_/)
      expect(delivery!.headers['content-type']).toBe('application/json')
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(receiver.received.filter((d) => d.path === '/failures' || d.path === '/stranger')).toEqual([])
      const [row] = await until(() => deliveryOf(subscribed.id), (rows) => rows[0]?.state === 'succeeded')
      expect(await attemptsOf(row!.id)).toMatchObject([{ http_status: 204 }])
    } finally {
      await consumer.stop()
    }
  })

  test('a saved search run that completes is also saved_search.run_completed, naming its saved search', async () => {
    const consumer = await startConsumer()
    try {
      const { user, api } = await createApiUser(admin)
      const runs = await createEndpoint(api, '/runs', ['saved_search.run_completed'])
      const exports = await createEndpoint(api, '/exports', ['export.completed'])
      const { rows } = await admin.query<{ id: string }>(
        `insert into public.saved_searches (user_id, name, criteria, enrichments) values ($1, 'Bakeries', '{"sector":"shop-bakery","country":"France"}', '{phone}') returning id`,
        [user.id],
      )
      const savedSearchId = rows[0]!.id
      const { rows: created } = await admin.query<{ id: string }>(
        `insert into public.exports (user_id, name, status, lead_count, total_credits_used, enrichment_options, saved_search_id) values ($1, 'Bakeries – run', 'processing', 3, 3, '{"phone":true}', $2) returning id`,
        [user.id, savedSearchId],
      )
      await admin.query(`update public.exports set status = 'completed', completed_at = now() where id = $1`, [created[0]!.id])
      const [run] = await receiver.waitFor('/runs', 1)
      const [done] = await receiver.waitFor('/exports', 1)
      const event = verifyDelivery(runs.secret, run!) as unknown as { type: string; data: { export: { id: string; saved_search_id: string } } }
      expect(event.type).toBe('saved_search.run_completed')
      expect(event.data.export).toMatchObject({ id: created[0]!.id, saved_search_id: savedSearchId })
      expect(verifyDelivery(exports.secret, done!)).toMatchObject({ type: 'export.completed' })
      // An export that is no saved search's run is not a run.
      await finishedExport(user.id)
      await receiver.waitFor('/exports', 2)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(receiver.received.filter((d) => d.path === '/runs')).toHaveLength(1)
    } finally {
      await consumer.stop()
    }
  })

  test('failures retry on the schedule (injected clock) with the same bytes, and survive a restart of the consumer', async () => {
    const clock = testClock()
    let consumer = await startConsumer({ clock, autoPump: false })
    try {
      const { user, api } = await createApiUser(admin)
      receiver.behave('/flaky', { status: 500, body: 'x'.repeat(3000) })
      const endpoint = await createEndpoint(api, '/flaky')
      await finishedExport(user.id, 'interrupted')
      const [delivery] = await deliveryOf(endpoint.id)
      for (let attempt = 1; attempt <= RETRY_DELAYS_SECONDS.length; attempt += 1) {
        expect(await consumer.pump()).toBe(1)
        const row = await until(() => deliveryOf(endpoint.id).then((rows) => rows[0]!), (row) => row.attempt_count === attempt && row.state === 'pending')
        const attempts = await attemptsOf(delivery!.id)
        const last = attempts.at(-1)!
        expect(new Date(row.next_attempt_at).getTime() - last.attempted_at.getTime()).toBe(RETRY_DELAYS_SECONDS[attempt - 1]! * 1000)
        // Not due until the clock gets there.
        expect(await consumer.pump()).toBe(0)
        clock.advance(RETRY_DELAYS_SECONDS[attempt - 1]! * 1000)
        if (attempt === 3) {
          // A restart: another consumer (another pg-boss instance) takes over with the state in the database.
          await consumer.stop()
          consumer = await startConsumer({ clock, autoPump: false })
        }
        if (attempt === RETRY_DELAYS_SECONDS.length) receiver.behave('/flaky', { status: 200, body: 'ok' })
      }
      expect(await consumer.pump()).toBe(1)
      await until(() => deliveryOf(endpoint.id).then((rows) => rows[0]!), (row) => row.state === 'succeeded')
      const received = receiver.received.filter((d) => d.path === '/flaky')
      expect(received).toHaveLength(RETRY_DELAYS_SECONDS.length + 1)
      expect(new Set(received.map((d) => d.body)).size).toBe(1)
      expect(new Set(received.map((d) => d.headers['webhook-id'])).size).toBe(1)
      for (const d of received) expect(verifyDelivery(endpoint.secret, d).type).toBe('export.interrupted')
      const attempts = await admin.query('select http_status, response_excerpt from public.webhook_attempts where delivery_id = $1 order by attempted_at', [delivery!.id])
      expect(attempts.rows[0]).toMatchObject({ http_status: 500 })
      expect(attempts.rows[0].response_excerpt).toHaveLength(1024)
      expect((await admin.query('select failing_since from public.webhook_endpoints where id = $1', [endpoint.id])).rows[0].failing_since).toBeNull()

      // Redeliver: the same id and bytes again, as a new delivery.
      expect(await redeliver({ ...user }, delivery!.id)).not.toBeNull()
      expect(await consumer.pump()).toBe(1)
      const again = await receiver.waitFor('/flaky', RETRY_DELAYS_SECONDS.length + 2)
      expect(again.at(-1)!.body).toBe(received[0]!.body)
      expect(again.at(-1)!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id'])
    } finally {
      await consumer.stop()
    }
  }, 60_000)

  test('two consumers deliver each event once', async () => {
    const first = await startConsumer()
    const second = await startConsumer()
    try {
      const { user, api } = await createApiUser(admin)
      receiver.behave('/twice', { delayMs: 50 })
      const endpoint = await createEndpoint(api, '/twice')
      for (let i = 0; i < 12; i += 1) await finishedExport(user.id)
      const received = await receiver.waitFor('/twice', 12)
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(receiver.received.filter((d) => d.path === '/twice')).toHaveLength(12)
      expect(new Set(received.map((d) => d.headers['webhook-id'])).size).toBe(12)
      const rows = await until(() => deliveryOf(endpoint.id), (rows) => rows.every((row) => row.state === 'succeeded'))
      expect(rows.map((row) => row.attempt_count)).toEqual(Array(12).fill(1))
    } finally {
      await Promise.all([first.stop(), second.stop()])
    }
  }, 30_000)

  test('a slow endpoint holds at most 4 slots: another endpoint is delivered at once beside it', async () => {
    const consumer = await startConsumer()
    try {
      const slowOwner = await createApiUser(admin)
      const fastOwner = await createApiUser(admin)
      receiver.behave('/slow', { delayMs: 3_000 })
      await createEndpoint(slowOwner.api, '/slow')
      await createEndpoint(fastOwner.api, '/fast')
      for (let i = 0; i < 6; i += 1) await finishedExport(slowOwner.user.id)
      await receiver.waitFor('/slow', 4)
      const started = Date.now()
      await finishedExport(fastOwner.user.id)
      const [fast] = await receiver.waitFor('/fast', 1, 2_500)
      expect(fast!.receivedAt - started).toBeLessThan(2_000)
      // Still 4 of the slow endpoint's: the other 2 wait for a free slot of theirs.
      expect(receiver.received.filter((d) => d.path === '/slow')).toHaveLength(4)
      await receiver.waitFor('/slow', 6, 8_000)
    } finally {
      await consumer.stop()
    }
  }, 30_000)

  test("three users' never-answering endpoints do not hold up another user's deliveries (round-robin, per-user cap)", async () => {
    // 6 slots in this file: each user may hold 1 (a quarter, the default's ratio); 30 hanging deliveries used to fill
    // every slot for their whole timeout, five times over, before the victim's turn.
    const consumer = await startConsumer({ timeoutMs: 4_000, config: { ...validateEnv(), WEBHOOK_USER_IN_FLIGHT: undefined } })
    const floods = await Promise.all([0, 1, 2].map(() => createApiUser(admin)))
    try {
      for (const [u, flood] of floods.entries()) {
        for (let i = 0; i < 10; i += 1) {
          receiver.behave(`/hang-${u}-${i}`, { delayMs: 60_000 })
          await createEndpoint(flood.api, `/hang-${u}-${i}`)
        }
      }
      const victim = await createApiUser(admin)
      await createEndpoint(victim.api, '/victim')
      for (const flood of floods) await finishedExport(flood.user.id)
      await until(async () => receiver.received.filter((d) => d.path.startsWith('/hang-')).length, (n) => n >= 3)
      const started = Date.now()
      await finishedExport(victim.user.id)
      const [delivered] = await receiver.waitFor('/victim', 1, 6_000)
      // Loose: the pump's next round and a free slot, never a hanging delivery's 4 s timeout.
      expect(delivered!.receivedAt - started).toBeLessThan(3_000)
      // The floods never held more than their cap each.
      expect(receiver.received.filter((d) => d.path.startsWith('/hang-')).length).toBeLessThanOrEqual(6)
    } finally {
      await consumer.stop()
      // What the floods still owe must not be delivered by the next tests' consumers.
      await admin.query(`update public.webhook_deliveries set state = 'failed' where user_id = any($1)`, [floods.map((flood) => flood.user.id)])
    }
  }, 60_000)

  test('an endpoint failing for 3 days is disabled, what it owed is dropped, and its owner is told', async () => {
    const clock = testClock()
    const consumer = await startConsumer({ clock, autoPump: false })
    try {
      const { user, api } = await createApiUser(admin)
      receiver.behave('/down', { status: 503 })
      const endpoint = await createEndpoint(api, '/down')
      await finishedExport(user.id)
      expect(await consumer.pump()).toBe(1)
      await until(() => deliveryOf(endpoint.id), (rows) => rows[0]?.attempt_count === 1)
      clock.advance(3 * 24 * 3600 * 1000 - 60_000)
      await finishedExport(user.id, 'failed')
      // Two due now: the first one's retry and the new event. Not yet 3 days: still enabled.
      expect(await consumer.pump()).toBe(2)
      await until(() => deliveryOf(endpoint.id), (rows) => rows.every((row) => row.attempt_count >= 1 && row.state !== 'queued' && row.state !== 'delivering'))
      expect((await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: endpoint.id } } })).data).toMatchObject({ enabled: true })
      clock.advance(2 * 60_000)
      await finishedExport(user.id, 'failed')
      expect(await consumer.pump()).toBeGreaterThanOrEqual(1)
      const disabled = await until(
        () => api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id: endpoint.id } } }).then((answer) => answer.data!),
        (data) => !data.enabled,
      )
      expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing' })
      const rows = await until(() => deliveryOf(endpoint.id), (rows) => rows.every((row) => row.state === 'failed'))
      expect(rows).toHaveLength(3)
      const { rows: notes } = await admin.query(`select kind, data from public.notifications where user_id = $1 and kind = 'webhook.disabled'`, [user.id])
      expect(notes).toEqual([{ kind: 'webhook.disabled', data: { endpointId: endpoint.id, url: endpoint.url } }])
      // Disabled: a new event owes it nothing.
      await finishedExport(user.id)
      expect(await deliveryOf(endpoint.id)).toHaveLength(3)
    } finally {
      await consumer.stop()
    }
  }, 30_000)

  test('a test event from the API is delivered signed, and the per-user limit holds', async () => {
    const consumer = await startConsumer()
    try {
      const { api } = await createApiUser(admin)
      const endpoint = await createEndpoint(api, '/test-event', ['export.failed'])
      const sent = await api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: endpoint.id } } })
      expect(sent.response.status).toBe(202)
      const [delivery] = await receiver.waitFor('/test-event', 1)
      expect(verifyDelivery(endpoint.secret, delivery!)).toEqual({ type: 'test', timestamp: expect.any(String), data: {} })
      for (let i = 0; i < 2; i += 1) expect((await api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: endpoint.id } } })).response.status).toBe(202)
      const limited = await api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id: endpoint.id } } })
      expect(limited.response.status).toBe(429)
    } finally {
      await consumer.stop()
    }
  })

  test('a delivery is refused at send time when the URL is no longer allowed (guard at delivery)', async () => {
    const consumer = await startConsumer({ network: { allowList: new HostAllowList([]), lookup: async () => [{ address: '127.0.0.1', family: 4 }], httpsOnly: false } })
    try {
      const { user, api } = await createApiUser(admin)
      const endpoint = await createEndpoint(api, '/guarded')
      await finishedExport(user.id)
      const [row] = await until(() => deliveryOf(endpoint.id), (rows) => rows[0]?.attempt_count === 1)
      const [attempt] = await attemptsOf(row!.id)
      expect(attempt).toMatchObject({ http_status: null, error: 'blocked_address' })
      expect(receiver.received.filter((d) => d.path === '/guarded')).toEqual([])
    } finally {
      await consumer.stop()
    }
  })
})
