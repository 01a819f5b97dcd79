// Webhook rules (../shared/API.md "Webhooks"): the events, the retry schedule, when an endpoint is given up, and the
// body of a delivery. Pure: the worker, the API, the settings pages and the tests share them.
import type { ApiExport } from './api-export.ts'

/** Events an endpoint can subscribe to. `test` is only ever sent on request ("Send test event"). */
export const WEBHOOK_EVENTS = ['export.completed', 'export.failed', 'export.interrupted', 'saved_search.run_completed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
export type WebhookEventType = WebhookEvent | 'test'

export const WEBHOOK_URL_MAX = 2000
/** Endpoints per user: enough for every system a team wires in, few enough that one event stays a few requests. */
export const MAX_WEBHOOK_ENDPOINTS = 10

/** Seconds to wait after each failed attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then it is given up. */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const

/** An endpoint failing without a single success for this long is disabled, and its owner told. */
const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000

export const DELIVERY_TIMEOUT_MS = 10_000
/** The start of an answer kept in the attempts log. */
export const RESPONSE_EXCERPT_BYTES = 1024

export const DELIVERY_STATES = ['pending', 'queued', 'delivering', 'succeeded', 'failed'] as const
export type DeliveryState = (typeof DELIVERY_STATES)[number]

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value)
}

/**
 * When to try again after `attemptsMade` failed attempts (1 after the first), or null when the schedule is spent
 * (8 attempts in all, over about 28 hours).
 */
export function nextAttemptAt(attemptsMade: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attemptsMade - 1]
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * 1000)
}

/** Whether a failure at `now` ends an endpoint that has failed since `failingSince` without any success. */
export function shouldDisable(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS
}

/** An HTTP answer that counts as delivered: any 2xx (a redirect is not followed, so it is a failure). */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300
}

export interface WebhookPayload {
  type: WebhookEventType
  timestamp: string
  data: { export?: ApiExport }
}

/** The body of a delivery: the export object as the API shows it; a test event carries no data. */
export function webhookPayload(type: WebhookEventType, occurredAt: Date, exp?: ApiExport): WebhookPayload {
  return { type, timestamp: occurredAt.toISOString(), data: exp ? { export: exp } : {} }
}

/**
 * The start of an answer for the log: its first RESPONSE_EXCERPT_BYTES bytes as text, without the character the cut
 * may have broken, and without NUL (which Postgres text cannot hold).
 */
export function responseExcerpt(body: Buffer): string {
  return body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '').replaceAll('\0', '')
}

/** An endpoint as its owner sees it (the API, the settings pages): never its secret. */
export interface WebhookEndpointView {
  id: string
  url: string
  events: WebhookEvent[]
  enabled: boolean
  disabledAt: string | null
  disabledReason: 'failing' | 'user' | null
  failingSince: string | null
  createdAt: string
}

interface WebhookAttemptView {
  attemptedAt: string
  httpStatus: number | null
  durationMs: number
  responseExcerpt: string | null
  error: string | null
}

export interface WebhookDeliveryView {
  id: string
  eventType: WebhookEventType
  messageId: string
  state: DeliveryState
  attemptCount: number
  nextAttemptAt: string | null
  createdAt: string
  attempts: WebhookAttemptView[]
}
