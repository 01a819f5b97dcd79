// Webhook latency (../shared/API.md "Webhooks"; target p95 < 2 s): from an export's status set to completed in the
// database (the commit that fires the outbox trigger) to the delivery's arrival at a loopback receiver, through the
// server's own worker (pump → pg-boss job → signed POST). Twice: with one fast endpoint, then with a slow endpoint
// (answers after 5 s) beside it, which must not delay the fast one. Called by bench/api.ts ("WEBHOOK LATENCY"),
// whose server gets webhookBenchEnv() so it may deliver to the receivers on loopback. No timed assertion.
import { performance } from 'node:perf_hooks'
import type pg from 'pg'
import type { SessionUser } from '#app/.server/auth.ts'
import { createWebhookEndpoint, setWebhookEnabled } from '#app/.server/webhooks/endpoints.ts'
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'
import type { TableValue } from './lib/table.ts'

const SLOW_MS = 5_000

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!
const round = (value: number) => Math.round(value)

/** The loopback receiver, started before the server so its address can be allow-listed. */
export async function startBenchReceiver(): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver()
  receiver.behave('/slow', { delayMs: SLOW_MS })
  return receiver
}

export function webhookBenchEnv(receiver: WebhookReceiver): Record<string, string> {
  return { WEBHOOK_ALLOW_HOSTS: receiver.host }
}

async function completeExport(db: pg.Pool, userId: string): Promise<{ exportId: string; committedAt: number }> {
  const { rows } = await db.query<{ id: string }>(`insert into public.exports (user_id, name, status, lead_count) values ($1, 'Webhook bench', 'processing', 10) returning id`, [userId])
  const exportId = rows[0]!.id
  await db.query(`update public.exports set status = 'completed', completed_at = now() where id = $1`, [exportId])
  // After the commit: what a receiver could be told about at the earliest.
  return { exportId, committedAt: performance.timeOrigin + performance.now() }
}

/** Completes `samples` exports one after the other and returns each one's latency to the fast endpoint (ms). */
async function latencies(db: pg.Pool, userId: string, receiver: WebhookReceiver, secret: string, samples: number): Promise<number[]> {
  const result: number[] = []
  for (let i = 0; i < samples; i++) {
    const before = receiver.received.filter((delivery) => delivery.path === '/fast').length
    const { exportId, committedAt } = await completeExport(db, userId)
    const [delivery] = (await receiver.waitFor('/fast', before + 1, 30_000)).slice(before)
    const event = verifyDelivery(secret, delivery!)
    if (event.data.export?.id !== exportId) throw new Error(`delivery for ${event.data.export?.id}, expected ${exportId}`)
    result.push(delivery!.receivedAt - committedAt)
  }
  return result
}

/**
 * p50/p95 of the fast endpoint's latency alone, then beside the slow endpoint; rows for printTable with the headers
 * WEBHOOK_LATENCY_HEADERS. `db`: the server's database (as its superuser); `user`: an account of it.
 */
export async function measureWebhookLatency({ db, user, receiver, samples = 40 }: { db: pg.Pool; user: SessionUser; receiver: WebhookReceiver; samples?: number }): Promise<TableValue[][]> {
  const fast = await createWebhookEndpoint(user, { url: receiver.url('/fast'), events: ['export.completed'] })
  const slow = await createWebhookEndpoint(user, { url: receiver.url('/slow'), events: ['export.completed'] })
  if (!fast.ok || !slow.ok) throw new Error('the bench account could not add its webhook endpoints')
  await setWebhookEnabled(user, slow.endpoint.id, false)
  await latencies(db, user.id, receiver, fast.secret, 3)
  const alone = await latencies(db, user.id, receiver, fast.secret, samples)
  await setWebhookEnabled(user, slow.endpoint.id, true)
  const beside = await latencies(db, user.id, receiver, fast.secret, samples)
  const slowReceived = receiver.received.filter((delivery) => delivery.path === '/slow').length
  return [
    ['fast endpoint alone', samples, round(percentile(alone, 50)), round(percentile(alone, 95)), round(Math.max(...alone))],
    [`fast endpoint beside a ${SLOW_MS / 1000} s one (${slowReceived} slow deliveries started)`, samples, round(percentile(beside, 50)), round(percentile(beside, 95)), round(Math.max(...beside))],
  ]
}

export const WEBHOOK_LATENCY_HEADERS = ['receiver', 'exports', 'p50 ms', 'p95 ms', 'max ms']
