/**
 * The forms of /settings/integrations as one command each (CrmConnectionCommandSchema): what the page's action and
 * the API run. A failure carries the code the page words and the API answers; the status is the same for both.
 */
import type { SessionUser } from '#app/.server/auth.ts'
import type { Refusal } from '#app/.server/rate-limit.ts'
import type { CrmConnectionCommand, CrmConnectionView } from '#app/domain/crm.ts'
import { connectCrm, disconnectCrm, saveCrmMapping, testCrmConnection } from './connections.ts'
import { authorizeUrl, newOAuthState, oauthCookie, redirectUriFor, type OAuthStart } from './oauth.ts'
import { oauthProviders } from './oauth-apps.ts'
import { integrationsKeyConfigured } from './secrets.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'

export type ConnectionCommandFailure = 'key_missing' | 'too_many' | 'invalid_secret' | 'refused' | 'unavailable' | 'rate_limited' | 'not_found' | 'oauth_unavailable'

export type ConnectionCommandResult =
  | { ok: true; done: CrmConnectionCommand['intent']; connection?: CrmConnectionView; account?: string; redirect?: { to: string; cookie: string } }
  | { ok: false; code: ConnectionCommandFailure; reason?: string | undefined; refusal?: Refusal | undefined }

/** The HTTP status of each failure: the page and the API agree. */
export const CONNECTION_FAILURE_STATUS: Record<ConnectionCommandFailure, number> = {
  key_missing: 503,
  too_many: 409,
  invalid_secret: 422,
  refused: 422,
  unavailable: 503,
  rate_limited: 429,
  not_found: 404,
  oauth_unavailable: 409,
}

/**
 * "Connect with …": the state bound to this browser by a cookie, then the CRM's authorization page. The callback
 * (routes/settings.integrations.oauth.tsx) finishes with the same connect command as a pasted credential.
 */
async function startOAuth(user: SessionUser, command: Extract<CrmConnectionCommand, { intent: 'oauth' }>, origin: string): Promise<ConnectionCommandResult> {
  requirePermission(user, 'integrations')
  if (!integrationsKeyConfigured()) return { ok: false, code: 'key_missing' }
  if (!oauthProviders().includes(command.provider)) return { ok: false, code: 'oauth_unavailable' }
  const start: OAuthStart = { state: newOAuthState(), provider: command.provider, label: command.label, spreadsheet: command.spreadsheet ?? null, workspaceId: user.workspace.id }
  return { ok: true, done: 'oauth', redirect: { to: authorizeUrl(start, redirectUriFor(origin)), cookie: await oauthCookie.serialize(start) } }
}

export async function runConnectionCommand(user: SessionUser, command: CrmConnectionCommand, { origin = '' }: { origin?: string } = {}): Promise<ConnectionCommandResult> {
  switch (command.intent) {
    case 'oauth':
      return startOAuth(user, command, origin)
    case 'connect': {
      const result = await connectCrm(user, { provider: command.provider, label: command.label, secret: command.secret, spreadsheet: command.spreadsheet })
      return result.ok ? { ok: true, done: 'connect', connection: result.connection } : result
    }
    case 'test': {
      const result = await testCrmConnection(user, command.connectionId)
      return result.ok ? { ok: true, done: 'test', account: result.account } : result
    }
    case 'mapping':
      return (await saveCrmMapping(user, command.connectionId, command.mapping)) ? { ok: true, done: 'mapping' } : { ok: false, code: 'not_found' }
    case 'disconnect':
      return (await disconnectCrm(user, command.connectionId)) ? { ok: true, done: 'disconnect' } : { ok: false, code: 'not_found' }
  }
}
