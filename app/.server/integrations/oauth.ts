/**
 * Connecting HubSpot, Pipedrive or Google Sheets by OAuth instead of a pasted credential, when the deployment has an
 * OAuth app for it (`HUBSPOT_CLIENT_ID`/`_SECRET`, `PIPEDRIVE_CLIENT_ID`/`_SECRET`, `GOOGLE_CLIENT_ID`/`_SECRET`):
 * the authorization-code flow, with a random state bound to the browser by an HttpOnly cookie, the code exchanged on
 * the server, and the tokens stored as the connection's (encrypted) secret. The access token is refreshed when it is
 * about to expire, and the new tokens are written back, so a connection keeps working without anyone.
 * Endpoints are fixed by configuration (never a URL from a request); tests point them at a local fake.
 */
import crypto from 'node:crypto'
import { createCookie } from 'react-router'
import { adminDb } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import type { CrmProvider } from '#app/domain/crm.ts'
import { appOf, type OAuthProvider } from './oauth-apps.ts'
import { CrmAuthError, CrmUnavailableError } from './crm-http.ts'
import { sealSecret } from './secrets.ts'

/** What the browser carries from "Connect with …" to the callback: the state and what the form said. */
export interface OAuthStart {
  state: string
  provider: OAuthProvider
  label: string
  spreadsheet: string | null
  workspaceId: string
}

/** Ten minutes to approve at the CRM; HttpOnly, and Lax so that the CRM's redirect back (a top-level GET) carries it. */
export const oauthCookie = createCookie('la_crm_oauth', { path: '/settings/integrations', httpOnly: true, sameSite: 'lax', maxAge: 600 })

export function redirectUriFor(origin: string): string {
  return `${(env.APP_URL ?? origin).replace(/\/+$/, '')}/settings/integrations/oauth`
}

/** The CRM's authorization page for this start. */
export function authorizeUrl(start: OAuthStart, redirectUri: string): string {
  const app = appOf(start.provider)
  if (!app) throw new Error(`no OAuth app for ${start.provider}`)
  const url = new URL(app.authorizeUrl)
  url.searchParams.set('client_id', app.clientId)
  url.searchParams.set('redirect_uri', redirectUri)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('state', start.state)
  if (app.scope) url.searchParams.set('scope', app.scope)
  for (const [name, value] of Object.entries(app.extra)) url.searchParams.set(name, value)
  return url.toString()
}

export function newOAuthState(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** The stored secret of an OAuth connection. */
interface OAuthTokens {
  accessToken: string
  refreshToken: string | null
  /** Epoch ms. */
  expiresAt: number
  /** Pipedrive: the company's API host the tokens belong to. */
  apiDomain: string | null
}

const OAUTH_PREFIX = 'oauth:'

export function oauthSecret(tokens: OAuthTokens): string {
  return `${OAUTH_PREFIX}${JSON.stringify(tokens)}`
}

export function readOAuthSecret(secret: string): OAuthTokens | null {
  if (!secret.startsWith(OAUTH_PREFIX)) return null
  try {
    const parsed = JSON.parse(secret.slice(OAUTH_PREFIX.length)) as Partial<OAuthTokens>
    if (typeof parsed.accessToken !== 'string') return null
    return { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken ?? null, expiresAt: Number(parsed.expiresAt) || 0, apiDomain: parsed.apiDomain ?? null }
  } catch {
    return null
  }
}

async function tokenRequest(provider: CrmProvider, form: Record<string, string>): Promise<OAuthTokens> {
  const app = appOf(provider)
  if (!app) throw new CrmAuthError('OAuth is not configured for this CRM')
  const body = new URLSearchParams({ ...form, ...(app.basicAuth ? {} : { client_id: app.clientId, client_secret: app.clientSecret }) })
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }
  if (app.basicAuth) headers.authorization = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`
  let response: Response
  try {
    response = await fetch(app.tokenUrl, { method: 'POST', body, headers, redirect: 'error', signal: AbortSignal.timeout(15_000) })
  } catch {
    throw new CrmUnavailableError('network_error')
  }
  const json = (await response.json().catch(() => null)) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; api_domain?: unknown; error_description?: unknown; error?: unknown } | null
  if (response.status >= 500) throw new CrmUnavailableError(`http_${response.status}`)
  if (!response.ok || typeof json?.access_token !== 'string') {
    const reason = typeof json?.error_description === 'string' ? json.error_description : typeof json?.error === 'string' ? json.error : `HTTP ${response.status}`
    throw new CrmAuthError(reason.slice(0, 300))
  }
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 1800
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : (form.refresh_token ?? null),
    expiresAt: Date.now() + expiresIn * 1000,
    apiDomain: typeof json.api_domain === 'string' ? json.api_domain : null,
  }
}

/** The callback's code for tokens (the CRM's refusal as a CrmAuthError). */
export function exchangeCode(provider: OAuthProvider, code: string, redirectUri: string): Promise<OAuthTokens> {
  return tokenRequest(provider, { grant_type: 'authorization_code', code, redirect_uri: redirectUri })
}

/** Refreshed this long before it expires: a push's requests never carry a token that dies on the way. */
const REFRESH_MARGIN_MS = 120_000

/**
 * A fresh access token for an OAuth connection: the stored one while it lives, else refreshed (once for every caller
 * waiting) and, for a stored connection, written back encrypted.
 */
export function oauthBearer(provider: CrmProvider, initial: OAuthTokens, connectionId: string | null): () => Promise<string> {
  let tokens = initial
  let pending: Promise<string> | null = null
  const refresh = async () => {
    try {
      if (!tokens.refreshToken) throw new CrmAuthError('the OAuth access expired: connect the CRM again')
      tokens = await tokenRequest(provider, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken })
      if (connectionId) {
        await adminDb().updateTable('crm_connections').set({ secret_ciphertext: sealSecret(oauthSecret(tokens), connectionId), updated_at: new Date() }).where('id', '=', connectionId).execute()
      }
      return tokens.accessToken
    } finally {
      pending = null
    }
  }
  return () => {
    if (tokens.expiresAt - REFRESH_MARGIN_MS > Date.now()) return Promise.resolve(tokens.accessToken)
    pending ??= refresh()
    return pending
  }
}

/** Pipedrive's OAuth tokens belong to the company's own API host: used when it is one of Pipedrive's. */
export function oauthBaseUrl(tokens: OAuthTokens, configured: string): string {
  if (!tokens.apiDomain) return configured
  try {
    const host = new URL(tokens.apiDomain).hostname
    return host.endsWith('.pipedrive.com') ? new URL(tokens.apiDomain).origin : configured
  } catch {
    return configured
  }
}
