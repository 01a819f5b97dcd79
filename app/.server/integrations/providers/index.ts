/**
 * The adapter of a connection: its provider's module, the API's base URL from the configuration, and a CRM client
 * whose budgets are the CRM account's (named by a hash of the credential: two workspaces pasting the same token share
 * one account's limits, as the CRM counts them) served in turn between the workspaces that wait for it.
 */
import crypto from 'node:crypto'
import { env } from '#app/.server/env.server.ts'
import type { GlobalLimits } from '#app/.server/limits/global.ts'
import type { CrmProvider } from '#app/domain/crm.ts'
import { createCrmHttp } from '../crm-http.ts'
import { oauthBaseUrl, oauthBearer, readOAuthSecret } from '../oauth.ts'
import { brevo } from './brevo.ts'
import { hubspot } from './hubspot.ts'
import { pipedrive } from './pipedrive.ts'
import { sheets } from './sheets.ts'
import type { CrmAdapter, CrmProviderModule } from './types.ts'

export const PROVIDER_MODULES: Record<CrmProvider, CrmProviderModule> = { hubspot, pipedrive, brevo, sheets }

function baseUrlOf(provider: CrmProvider): string {
  switch (provider) {
    case 'hubspot':
      return env.HUBSPOT_API_URL
    case 'pipedrive':
      return env.PIPEDRIVE_API_URL
    case 'brevo':
      return env.BREVO_API_URL
    case 'sheets':
      return env.GOOGLE_SHEETS_API_URL
  }
}

export interface AdapterOptions {
  /** The workspace whose turn the requests take. */
  workspaceId: string
  /** A stored connection: an OAuth token refreshed on the way is written back to it. */
  connectionId?: string
  signal?: AbortSignal
  /** Default: the deployment's shared limits. */
  limits?: GlobalLimits | null
}

export function createAdapter(provider: CrmProvider, secret: string, options: AdapterOptions): CrmAdapter {
  const module = PROVIDER_MODULES[provider]
  const oauth = readOAuthSecret(secret)
  const baseUrl = oauth ? oauthBaseUrl(oauth, baseUrlOf(provider)) : baseUrlOf(provider)
  const account = crypto.createHash('sha256').update(`${provider}\0${secret}`).digest('base64url').slice(0, 22)
  return module.create({
    secret: oauth ? '' : secret,
    ...(oauth ? { bearer: oauthBearer(provider, oauth, options.connectionId ?? null) } : {}),
    baseUrl,
    tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
    http: (headers) =>
      createCrmHttp({
        baseUrl,
        headers,
        limitKey: `${provider}:${account}`,
        budgets: module.budgets,
        account: options.workspaceId,
        ...(options.limits !== undefined ? { limits: options.limits } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
  })
}
