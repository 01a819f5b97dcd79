// Standard Webhooks signing (standardwebhooks.com): the endpoint secret `whsec_<base64>` and the three headers.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

/** 32 random bytes (256 bits), the secret's own format: shown once, kept by the server to sign. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** `previousSecret` (during a rotation's overlap): a second `v1,` signature, after the new secret's, space-separated. */
export function signedHeaders(secret: string, messageId: string, at: Date, body: string, previousSecret?: string | null): Record<string, string> {
  const secrets = previousSecret ? [secret, previousSecret] : [secret]
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' '),
  }
}
