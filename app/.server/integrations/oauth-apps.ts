/**
 * The OAuth apps this deployment has (client id and secret in the configuration), and their fixed endpoints. Apart
 * from oauth.ts because the server's Content-Security-Policy reads it too: a form's redirect to an authorization page
 * is allowed only to these origins.
 */
import { env } from '#app/.server/env.server.ts'
import type { CrmProvider } from '#app/domain/crm.ts'

export type OAuthProvider = Extract<CrmProvider, 'hubspot' | 'pipedrive' | 'sheets'>

interface OAuthApp {
  clientId: string
  clientSecret: string
  authorizeUrl: string
  tokenUrl: string
  scope: string | null
  /** Extra authorize parameters (Google: a refresh token needs offline access and consent). */
  extra: Record<string, string>
  /** Pipedrive authenticates the client with HTTP Basic; the others in the form. */
  basicAuth: boolean
}

export function appOf(provider: CrmProvider): OAuthApp | null {
  switch (provider) {
    case 'hubspot':
      return env.HUBSPOT_CLIENT_ID && env.HUBSPOT_CLIENT_SECRET
        ? {
            clientId: env.HUBSPOT_CLIENT_ID,
            clientSecret: env.HUBSPOT_CLIENT_SECRET,
            authorizeUrl: env.HUBSPOT_OAUTH_AUTHORIZE_URL,
            tokenUrl: env.HUBSPOT_OAUTH_TOKEN_URL,
            scope: 'crm.objects.companies.read crm.objects.companies.write crm.objects.contacts.read crm.objects.contacts.write crm.schemas.companies.read crm.schemas.companies.write',
            extra: {},
            basicAuth: false,
          }
        : null
    case 'pipedrive':
      return env.PIPEDRIVE_CLIENT_ID && env.PIPEDRIVE_CLIENT_SECRET
        ? { clientId: env.PIPEDRIVE_CLIENT_ID, clientSecret: env.PIPEDRIVE_CLIENT_SECRET, authorizeUrl: env.PIPEDRIVE_OAUTH_AUTHORIZE_URL, tokenUrl: env.PIPEDRIVE_OAUTH_TOKEN_URL, scope: null, extra: {}, basicAuth: true }
        : null
    case 'sheets':
      return env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            authorizeUrl: env.GOOGLE_OAUTH_AUTHORIZE_URL,
            tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
            scope: 'https://www.googleapis.com/auth/spreadsheets',
            extra: { access_type: 'offline', prompt: 'consent' },
            basicAuth: false,
          }
        : null
    case 'brevo':
      return null
  }
}

/** The providers this deployment can connect by OAuth (the settings page offers a button for each). */
export function oauthProviders(): OAuthProvider[] {
  return (['hubspot', 'pipedrive', 'sheets'] as const).filter((provider) => appOf(provider) !== null)
}


/** The origins of the configured authorization pages (CSP form-action). */
export function oauthAuthorizeOrigins(): string[] {
  return oauthProviders().map((provider) => new URL(appOf(provider)!.authorizeUrl).origin)
}
