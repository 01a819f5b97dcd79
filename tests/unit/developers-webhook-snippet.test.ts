import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'

// /developers tells integrators to verify deliveries with `new Webhook(process.env.LEADATLAS_WEBHOOK_SECRET)` (the
// `whsec_…` secret as shown) and `webhook.verify(req.body, req.headers)` on Express's raw body and Node's lower-case
// headers. Those exact calls must accept a Standard Webhooks delivery and refuse a changed one.
describe('the webhook verification snippet of /developers', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`
  const body = Buffer.from(JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: {} }))
  const id = 'msg_2b7Yq1'
  const now = new Date()
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, now, body) }

  it('accepts a delivery signed with the endpoint secret, from the raw body and Node-style headers', () => {
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'test' })
  })

  it('refuses a body changed after signing, and an old timestamp', () => {
    expect(() => new Webhook(secret).verify(Buffer.from(body.toString().replace('test', 'tset')), headers)).toThrow()
    const old = new Date(now.getTime() - 10 * 60_000)
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, old, body) }
    expect(() => new Webhook(secret).verify(body, stale)).toThrow()
  })
})
