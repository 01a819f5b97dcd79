import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { generateWebhookSecret, signedHeaders } from '#app/.server/webhooks/sign.ts'
import { CreateWebhookEndpointSchema, WebhookEndpointCommandSchema, WebhookEndpointFieldsSchema } from '#app/domain/webhook-commands.ts'
import { isDelivered, nextAttemptAt, responseExcerpt, RETRY_DELAYS_SECONDS, shouldDisable, webhookPayload } from '#app/domain/webhooks.ts'

const at = new Date('2026-11-28T10:00:00Z')
const later = (ms: number) => new Date(at.getTime() + ms)

describe('the retry schedule', () => {
  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure, then gives up', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempts) => (nextAttemptAt(attempts, at)!.getTime() - at.getTime()) / 1000)
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000])
    expect(RETRY_DELAYS_SECONDS).toHaveLength(7)
    expect(nextAttemptAt(8, at)).toBeNull()
    expect(nextAttemptAt(0, at)).toBeNull()
  })

  it('disables an endpoint only after 3 full days of failures without a success', () => {
    expect(shouldDisable(null, at)).toBe(false)
    expect(shouldDisable(at, later(3 * 24 * 3600 * 1000 - 1))).toBe(false)
    expect(shouldDisable(at, later(3 * 24 * 3600 * 1000))).toBe(true)
  })

  it('counts any 2xx as delivered, nothing else (redirects are not followed)', () => {
    expect([200, 201, 204, 299].every(isDelivered)).toBe(true)
    expect([null, 199, 301, 302, 400, 500].some(isDelivered)).toBe(false)
  })
})

describe('the delivery body and signature', () => {
  it('carries the type, the event time and the export; a test event has empty data', () => {
    const exp = { id: 'e1' } as never
    expect(webhookPayload('export.completed', at, exp)).toEqual({ type: 'export.completed', timestamp: '2026-11-28T10:00:00.000Z', data: { export: exp } })
    expect(webhookPayload('test', at)).toEqual({ type: 'test', timestamp: '2026-11-28T10:00:00.000Z', data: {} })
  })

  it('signs per Standard Webhooks: a receiver with the secret verifies it, a changed body or another secret fails', () => {
    const secret = generateWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32)
    const body = JSON.stringify(webhookPayload('test', at))
    const headers = signedHeaders(secret, 'msg_1', new Date(), body)
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'test' })
    expect(() => new Webhook(secret).verify(body.replace('test', 'tset'), headers)).toThrow()
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow()
  })

  it('keeps at most 1 KB of an answer, never half a character nor a NUL', () => {
    expect(responseExcerpt(Buffer.from('x'.repeat(5000)))).toHaveLength(1024)
    const cut = responseExcerpt(Buffer.from(`${'x'.repeat(1023)}é`))
    expect(cut).toBe('x'.repeat(1023))
    expect(responseExcerpt(Buffer.from('a\0b'))).toBe('ab')
  })
})

describe('the webhook commands', () => {
  it('takes a URL and at least one known event, as the API and the form send them', () => {
    expect(WebhookEndpointFieldsSchema.parse({ url: ' https://example.com/h ', events: ['export.failed', 'export.completed'] })).toEqual({
      url: 'https://example.com/h',
      events: ['export.completed', 'export.failed'],
    })
    const issues = (value: unknown) => WebhookEndpointFieldsSchema.safeParse(value).error?.issues.map((issue) => issue.message)
    expect(issues({ url: '', events: ['export.failed'] })).toContain('webhooks.errors.urlRequired')
    expect(issues({ url: 'ftp://example.com', events: ['export.failed'] })).toContain('webhooks.errors.urlInvalid')
    expect(issues({ url: 'not a url', events: ['export.failed'] })).toContain('webhooks.errors.urlInvalid')
    expect(issues({ url: `https://example.com/${'a'.repeat(2000)}`, events: ['export.failed'] })).toContain('webhooks.errors.urlTooLong')
    expect(issues({ url: 'https://example.com', events: [] })).toContain('webhooks.errors.eventsRequired')
    expect(issues({ url: 'https://example.com' })).toContain('webhooks.errors.eventsRequired')
    expect(WebhookEndpointFieldsSchema.safeParse({ url: 'https://example.com', events: ['test'] }).success).toBe(false)
  })

  it('tells the endpoint page’s forms apart by intent', () => {
    expect(CreateWebhookEndpointSchema.parse({ intent: 'create-endpoint', url: 'https://example.com', events: ['export.completed'] }).intent).toBe('create-endpoint')
    expect(WebhookEndpointCommandSchema.parse({ intent: 'set-enabled', enabled: 'false' })).toEqual({ intent: 'set-enabled', enabled: false })
    expect(WebhookEndpointCommandSchema.parse({ intent: 'redeliver', deliveryId: 'x' })).toEqual({ intent: 'redeliver', deliveryId: 'x' })
    expect(WebhookEndpointCommandSchema.safeParse({ intent: 'set-enabled', enabled: 'maybe' }).success).toBe(false)
    expect(WebhookEndpointCommandSchema.safeParse({ intent: 'update-events', events: [] }).success).toBe(false)
  })
})
