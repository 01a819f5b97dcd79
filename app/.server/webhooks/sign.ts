// Standard Webhooks signing (standardwebhooks.com): the endpoint secret `whsec_<base64>` and the three headers.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

/** 32 random bytes (256 bits), the secret's own format: shown once, kept by the server to sign. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function signedHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  }
}
