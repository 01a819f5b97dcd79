/**
 * Webhook delivery (../shared/API.md "Webhooks"), through the job queue.
 *
 *   webhook_deliveries  the outbox and the schedule: the trigger on exports (or a test event, a redelivery) writes a
 *                       pending row; each failure moves its next_attempt_at along the retry schedule (domain/webhooks.ts).
 *   pump                every PUMP_INTERVAL_MS, takes the due rows round-robin between users (each user's first due
 *                       row, then each one's second...), at most the user's in-flight cap less what it already has
 *                       queued or delivering, marks them queued and sends one job each (queue WEBHOOK_QUEUE), in the
 *                       same transaction: a row is queued if and only if its job exists. The job queue thus never
 *                       holds more than the cap of one user's deliveries: another user's delivery waits behind a few
 *                       jobs, not behind a flood's backlog.
 *   consumer            WEBHOOK_CONCURRENCY jobs at once per worker, at most PER_ENDPOINT of one endpoint and
 *                       WEBHOOK_USER_IN_FLIGHT of one user across all workers (a user's never-answering endpoints hold
 *                       a few slots, never the other users'),
 *                       woken by the pump when it queues jobs: claims the row (queued → delivering, one claim per
 *                       attempt), POSTs, records the attempt.
 * A claim carries a lease (database time): a worker that dies mid-attempt leaves a lapsed lease, and the pump takes the
 * row again. The schedule reads an injectable clock, so tests can run "3 days later" without waiting.
 */
import { fromKysely, type PgBoss } from 'pg-boss'
import { sql, type Transaction } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { loadApiExport } from '#app/.server/exports/api-export.ts'
import { notify } from '#app/.server/notifications/store.ts'
import { countWebhookDelivery } from '#app/.server/observability/metrics.ts'
import { isDelivered, nextAttemptAt, responseExcerpt, shouldDisable, webhookPayload, type WebhookEventType } from '#app/domain/webhooks.ts'
import { abandonOwedDeliveries } from './endpoints.ts'
import { webhookNetwork, type WebhookNetwork } from './guard.ts'
import { createWebhookClient, type PostOutcome, type WebhookClient } from './http.ts'
import { signedHeaders } from './sign.ts'

interface Clock {
  now(): Date
}
const systemClock: Clock = { now: () => new Date() }

const PUMP_INTERVAL_MS = 200
/** The consumers' own poll: a backstop for jobs another process queued or pg-boss retries (the pump wakes them). */
const POLL_SECONDS = 5
const PUMP_BATCH = 100
/** A queued row whose job was never taken (a lost job) is queued again after this. */
const QUEUED_LEASE = '2 minutes'
/**
 * Deliveries of one endpoint in flight, across all workers (counted under the endpoint's row lock at each claim): a
 * slow endpoint can hold this many slots, never all of them, and no receiver gets a flood from us. Past it, a
 * delivery waits BUSY_RETRY_MS (not an attempt).
 */
const PER_ENDPOINT = 4
const BUSY_RETRY_MS = 1_000
/** Longer than the 10 s request: a live attempt never loses its claim. */
const DELIVERING_LEASE = '1 minute'

interface DeliveryJob {
  deliveryId: string
}

/**
 * Deliveries of one user queued or in flight across all workers: WEBHOOK_USER_IN_FLIGHT, else a quarter of a worker's
 * slots (4 of 16), so that three users whose endpoints never answer leave a worker a quarter of its slots for everyone
 * else.
 */
function userInFlightCap(config: Pick<Env, 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_USER_IN_FLIGHT'>): number {
  return config.WEBHOOK_USER_IN_FLIGHT ?? Math.max(1, Math.floor(config.WEBHOOK_CONCURRENCY / 4))
}

export interface WebhookDeliveryOptions {
  config?: Env
  clock?: Clock
  network?: WebhookNetwork
  timeoutMs?: number
  log?: (message: string) => void
  /** false: no timer (a test calls pump() itself). */
  autoPump?: boolean
}

export interface WebhookDelivery {
  /** Queues the due deliveries now; returns how many. */
  pump(): Promise<number>
  stop(): Promise<void>
}

async function ensureQueue(boss: PgBoss, queue: string) {
  // The job only carries the attempt: its retries cover a crash between the claim and the record, nothing more
  // (the retry schedule is the delivery's own, in the database).
  await boss.createQueue(queue, { policy: 'standard', retryLimit: 2, retryDelay: 5, expireInSeconds: 60 })
}

/**
 * Moves due deliveries (and those whose claim lapsed) to queued, one job each, in one transaction: round-robin between
 * users (`turn`: a user's n-th due row), each within what its cap leaves. The rows are chosen unlocked, then updated
 * only if still due (a pump of another worker that took one first made it queued): the due condition is checked again
 * under the row's lock.
 */
async function pumpOnce(boss: PgBoss, queue: string, clock: Clock, userCap: number): Promise<number> {
  const now = clock.now()
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        with due as (
          select id, user_id, next_attempt_at, row_number() over (partition by user_id order by next_attempt_at, id) as turn
          from public.webhook_deliveries
          where (state = 'pending' and next_attempt_at <= ${now})
             or (state in ('queued', 'delivering') and lease_until < now())
        ), busy as (
          select user_id, count(*)::int as n from public.webhook_deliveries
          where state in ('queued', 'delivering') and lease_until >= now() and user_id in (select user_id from due)
          group by user_id
        ), chosen as (
          select due.id from due left join busy using (user_id)
          where due.turn <= ${userCap} - coalesce(busy.n, 0)
          order by due.turn, due.next_attempt_at
          limit ${PUMP_BATCH}
        )
        update public.webhook_deliveries d set state = 'queued', lease_until = now() + ${QUEUED_LEASE}::interval
        where d.id in (select id from chosen)
          and ((d.state = 'pending' and d.next_attempt_at <= ${now}) or (d.state in ('queued', 'delivering') and d.lease_until < now()))
        returning d.id`.execute(trx)
      if (rows.length) await boss.insert(queue, rows.map((row) => ({ data: { deliveryId: row.id } satisfies DeliveryJob })), { db: fromKysely(trx) })
      return rows.length
    })
}

interface ClaimedDelivery {
  id: string
  user_id: string
  endpoint_id: string
  event_type: WebhookEventType
  message_id: string
  export_id: string | null
  occurred_at: Date
  payload: unknown
  attempt_count: number
  url: string
  secret: string
  /** The secret a rotation replaced, while its overlap lasts (database time): deliveries are signed with both. */
  previous_secret: string | null
  enabled: boolean
}

/**
 * Takes the delivery for one attempt, or null when another worker has it, it is settled, or its endpoint already has
 * PER_ENDPOINT deliveries in flight, or its user `userCap` (then it is put back, due again in BUSY_RETRY_MS).
 */
async function claim(deliveryId: string, clock: Clock, userCap: number): Promise<ClaimedDelivery | null> {
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      const { rows: found } = await sql<{ endpoint_id: string; user_id: string }>`
        select endpoint_id, user_id from public.webhook_deliveries
        where id = ${deliveryId} and (state = 'queued' or (state = 'delivering' and lease_until < now()))`.execute(trx)
      const endpointId = found[0]?.endpoint_id
      const userId = found[0]?.user_id
      if (!endpointId || !userId) return null
      // One claim per user, then per endpoint, at a time, so the counts below cannot be passed by two workers at once
      // (always in this order: two claims never wait for each other's lock). Class 25: apart from pg-boss's locks and
      // the limits' (23, 24).
      await sql`select pg_advisory_xact_lock(25, hashtext(${userId}))`.execute(trx)
      await sql`select 1 from public.webhook_endpoints where id = ${endpointId} for update`.execute(trx)
      const { rows: inFlight } = await sql<{ endpoint: number; for_user: number }>`
        select (count(*) filter (where endpoint_id = ${endpointId}))::int as endpoint, count(*)::int as for_user from public.webhook_deliveries
        where user_id = ${userId} and state = 'delivering' and lease_until > now() and id <> ${deliveryId}`.execute(trx)
      if ((inFlight[0]?.endpoint ?? 0) >= PER_ENDPOINT || (inFlight[0]?.for_user ?? 0) >= userCap) {
        await sql`
          update public.webhook_deliveries set state = 'pending', lease_until = null, next_attempt_at = ${new Date(clock.now().getTime() + BUSY_RETRY_MS)}
          where id = ${deliveryId} and state in ('queued', 'delivering')`.execute(trx)
        return null
      }
      const { rows } = await sql<ClaimedDelivery>`
        update public.webhook_deliveries d set state = 'delivering', lease_until = now() + ${DELIVERING_LEASE}::interval
        from public.webhook_endpoints e
        where d.id = ${deliveryId} and e.id = d.endpoint_id
          and (d.state = 'queued' or (d.state = 'delivering' and d.lease_until < now()))
        returning d.id, d.user_id, d.endpoint_id, d.event_type, d.message_id, d.export_id, d.occurred_at, d.payload, d.attempt_count, e.url, e.secret,
          case when e.previous_secret_expires_at > now() then e.previous_secret end as previous_secret, e.enabled`.execute(trx)
      return rows[0] ?? null
    })
}

/** The body, frozen at the first attempt so every retry sends the same bytes; null when its export is gone. */
async function frozenBody(delivery: ClaimedDelivery): Promise<string | null> {
  if (delivery.payload !== null) return JSON.stringify(delivery.payload)
  const exp = delivery.export_id ? await loadApiExport(adminDb(), delivery.export_id, delivery.user_id) : undefined
  if (delivery.export_id && !exp) return null
  const payload = webhookPayload(delivery.event_type, new Date(delivery.occurred_at), exp)
  // Stored as jsonb, then read back as the retries will read it.
  const row = await adminDb()
    .updateTable('webhook_deliveries')
    .set({ payload: JSON.stringify(payload) })
    .where('id', '=', delivery.id)
    .returning('payload')
    .executeTakeFirstOrThrow()
  return JSON.stringify(row.payload)
}

async function recordAttempt(delivery: ClaimedDelivery, outcome: PostOutcome, at: Date): Promise<void> {
  await adminDb()
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          user_id: delivery.user_id,
          attempted_at: at,
          http_status: outcome.status,
          duration_ms: outcome.durationMs,
          response_excerpt: outcome.status === null ? null : responseExcerpt(outcome.body),
          error: outcome.error,
        })
        .execute()
      const attempts = delivery.attempt_count + 1
      if (isDelivered(outcome.status)) {
        await trx.updateTable('webhook_deliveries').set({ state: 'succeeded', attempt_count: attempts, lease_until: null }).where('id', '=', delivery.id).execute()
        await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', delivery.endpoint_id).execute()
        return
      }
      const enabled = await recordEndpointFailure(trx, delivery, at)
      // No retry for an endpoint that is off (this failure, or another one meanwhile, disabled it).
      const next = enabled ? nextAttemptAt(attempts, at) : null
      await trx
        .updateTable('webhook_deliveries')
        .set(next ? { state: 'pending', attempt_count: attempts, next_attempt_at: next, lease_until: null } : { state: 'failed', attempt_count: attempts, lease_until: null })
        .where('id', '=', delivery.id)
        .execute()
    })
}

/**
 * Starts (or continues) the endpoint's failure streak; after 3 days of it, disables the endpoint, drops what it still
 * owes and tells its owner. Returns whether the endpoint is still enabled. An export's callback is never disabled:
 * it is owed an event or two, each on its own retry schedule, and its owner has no endpoint of that name to fix.
 */
async function recordEndpointFailure(trx: Transaction<Database>, delivery: ClaimedDelivery, at: Date): Promise<boolean> {
  const endpoint = await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql<Date>`coalesce(failing_since, ${at})` })
    .where('id', '=', delivery.endpoint_id)
    .returning(['failing_since', 'enabled', 'url', 'export_id'])
    .executeTakeFirst()
  if (!endpoint?.enabled) return false
  if (endpoint.export_id !== null || !shouldDisable(new Date(endpoint.failing_since!), at)) return true
  await trx.updateTable('webhook_endpoints').set({ enabled: false, disabled_at: at, disabled_reason: 'failing' }).where('id', '=', delivery.endpoint_id).execute()
  await abandonOwedDeliveries(trx, delivery.endpoint_id)
  // Told to a person: the endpoint's author while in the team, else the workspace's owner.
  const { rows } = await sql<{ recipient: string | null }>`
    select public.workspace_recipient(${delivery.user_id}::uuid, (select created_by from public.webhook_endpoints where id = ${delivery.endpoint_id})) as recipient`.execute(trx)
  if (rows[0]?.recipient) await notify(trx, rows[0].recipient, 'webhook.disabled', { endpointId: delivery.endpoint_id, url: endpoint.url })
  return false
}

/** Ends a delivery that cannot be sent (its endpoint is off, its export deleted) without an attempt. */
async function abandon(deliveryId: string): Promise<void> {
  countWebhookDelivery('abandoned')
  await adminDb().updateTable('webhook_deliveries').set({ state: 'failed', lease_until: null }).where('id', '=', deliveryId).execute()
}

async function deliver(deliveryId: string, client: WebhookClient, clock: Clock, userCap: number): Promise<void> {
  const delivery = await claim(deliveryId, clock, userCap)
  if (!delivery) return
  // A test event goes to a disabled endpoint too: it is how its owner checks a fix before switching it on.
  if (!delivery.enabled && delivery.event_type !== 'test') return abandon(delivery.id)
  const body = await frozenBody(delivery)
  if (body === null) return abandon(delivery.id)
  // Signed with the real time: receivers refuse a timestamp far from their clock.
  const outcome = await client.post(delivery.url, body, signedHeaders(delivery.secret, delivery.message_id, new Date(), body, delivery.previous_secret))
  await recordAttempt(delivery, outcome, clock.now())
  countWebhookDelivery(isDelivered(outcome.status) ? 'delivered' : 'failed')
}

/**
 * Registers the consumer and starts the pump on a started pg-boss instance (server/worker-slot.ts registrations).
 * Every worker process may run it: the pump's row locks and the claim keep each attempt to one worker.
 */
export async function startWebhookDelivery(boss: PgBoss, options: WebhookDeliveryOptions = {}): Promise<WebhookDelivery> {
  const config = options.config ?? validateEnv()
  const clock = options.clock ?? systemClock
  const log = options.log ?? ((message: string) => console.error(`[webhooks] ${message}`))
  const queue = config.WEBHOOK_QUEUE
  const userCap = userInFlightCap(config)
  const client = createWebhookClient(options.network ?? webhookNetwork(config), options.timeoutMs)
  await ensureQueue(boss, queue)
  // One worker per slot, each with its own id: the pump wakes them when it queues jobs, so they can poll slowly
  // (an idle worker costs a query every POLL_SECONDS) and still start a delivery within milliseconds.
  const workers: string[] = []
  const busy = new Set<string>()
  for (let slot = 0; slot < config.WEBHOOK_CONCURRENCY; slot++) {
    let self = ''
    self = await boss.work<DeliveryJob>(queue, { pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
      if (!job) return
      busy.add(self)
      try {
        await deliver(job.data.deliveryId, client, clock, userCap)
      } finally {
        busy.delete(self)
        // Straight to the next job of a burst, rather than after a poll interval.
        boss.notifyWorker(self)
      }
    })
    workers.push(self)
  }
  const pump = async () => {
    const queued = await pumpOnce(boss, queue, clock, userCap)
    // Idle workers first: one held by a slow endpoint would only take the job once that one answers.
    const idle = workers.filter((id) => !busy.has(id))
    for (const id of idle.slice(0, queued)) boss.notifyWorker(id)
    return queued
  }
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()
  const tick = () => {
    running = pump()
      .catch((error: unknown) => log(`pump: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, PUMP_INTERVAL_MS)
      })
  }
  if (options.autoPump !== false) tick()
  return {
    pump,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      await boss.offWork(queue, { wait: true }).catch(() => {})
      await client.close()
    },
  }
}

/** The worker slot's registration (server/start.ts, server/worker.ts): returns its stop. */
export async function registerWebhookDelivery(boss: PgBoss, { log }: { log: (message: string) => void }): Promise<() => Promise<void>> {
  const delivery = await startWebhookDelivery(boss, { log: (message) => log(`webhooks: ${message}`) })
  return delivery.stop
}
