/**
 * CRM credentials at rest: AES-256-GCM under INTEGRATIONS_ENCRYPTION_KEY, a fresh 96-bit nonce per secret, the
 * connection's id as associated data (a ciphertext copied onto another connection row does not open). Stored as
 * `v1.<nonce>.<ciphertext+tag>` in base64url; the version lets a later key rotation tell old rows from new.
 */
import crypto from 'node:crypto'
import { env } from '#app/.server/env.server.ts'

const VERSION = 'v1'
const NONCE_BYTES = 12
const TAG_BYTES = 16

/** No key is configured: connecting a CRM is refused with this (the page says what to set). */
class IntegrationsKeyMissingError extends Error {
  constructor() {
    super('INTEGRATIONS_ENCRYPTION_KEY is not set: CRM connections cannot be stored or used')
    this.name = 'IntegrationsKeyMissingError'
  }
}

function keyFrom(text: string | undefined): Buffer {
  if (!text) throw new IntegrationsKeyMissingError()
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  if (key.length !== 32) throw new IntegrationsKeyMissingError()
  return key
}

export function integrationsKeyConfigured(): boolean {
  return Boolean(env.INTEGRATIONS_ENCRYPTION_KEY)
}

export function sealSecret(secret: string, connectionId: string, keyText = env.INTEGRATIONS_ENCRYPTION_KEY): string {
  const nonce = crypto.randomBytes(NONCE_BYTES)
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFrom(keyText), nonce)
  cipher.setAAD(Buffer.from(connectionId))
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return [VERSION, nonce.toString('base64url'), sealed.toString('base64url')].join('.')
}

/** The secret, or throws (wrong key, altered or moved ciphertext: GCM's tag refuses it). */
export function openSecret(stored: string, connectionId: string, keyText = env.INTEGRATIONS_ENCRYPTION_KEY): string {
  const [version, nonceText, sealedText] = stored.split('.')
  if (version !== VERSION || !nonceText || !sealedText) throw new Error('unreadable CRM secret')
  const sealed = Buffer.from(sealedText, 'base64url')
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFrom(keyText), Buffer.from(nonceText, 'base64url'))
  decipher.setAAD(Buffer.from(connectionId))
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8')
}

/**
 * What the page shows of a secret: its first 4 and last 4 characters around an ellipsis ("pat-…9f2a"), nothing
 * of a short one; a service-account file by its account's email.
 */
export function secretHint(secret: string): string {
  if (secret.startsWith('oauth:')) return 'OAuth'
  try {
    const parsed = JSON.parse(secret) as { client_email?: unknown }
    if (typeof parsed.client_email === 'string') return parsed.client_email.slice(0, 40)
  } catch {
    // Not JSON: a token.
  }
  return secret.length >= 16 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '…'
}
