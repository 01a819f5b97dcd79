// The CRM's redirect back after "Connect with …" (routes/settings.integrations.tsx starts it): the state must be the
// one this browser was given, for the workspace it was given in; the code is exchanged on the server and the tokens
// go through the same connect command as a pasted credential (tried, the CRM readied, stored encrypted).
import { redirect } from 'react-router'
import type { Route } from './+types/settings.integrations.oauth'
import { requireUser } from '#app/.server/auth.ts'
import { connectCrm } from '#app/.server/integrations/connections.ts'
import { CrmAuthError, CrmUnavailableError } from '#app/.server/integrations/crm-http.ts'
import { exchangeCode, oauthCookie, oauthSecret, redirectUriFor, type OAuthStart } from '#app/.server/integrations/oauth.ts'

const INTEGRATIONS_PATH = '/settings/integrations'

function isStart(value: unknown): value is OAuthStart {
  const start = value as Partial<OAuthStart> | null
  return Boolean(start && typeof start.state === 'string' && typeof start.provider === 'string' && typeof start.label === 'string' && typeof start.workspaceId === 'string')
}

/** Back to the page with what happened; the state cookie is spent either way. */
async function back(query: string) {
  return redirect(`${INTEGRATIONS_PATH}?${query}`, { headers: { 'Set-Cookie': await oauthCookie.serialize('', { maxAge: 0 }) } })
}

async function exchanged(start: OAuthStart, code: string, origin: string) {
  try {
    return { tokens: await exchangeCode(start.provider, code, redirectUriFor(origin)) }
  } catch (error) {
    if (error instanceof CrmAuthError) return { failed: 'oauth_refused' as const }
    if (error instanceof CrmUnavailableError) return { failed: 'unavailable' as const }
    throw error
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const start = await oauthCookie.parse(request.headers.get('Cookie'))
  const state = url.searchParams.get('state')
  // Another browser's (or a forged) callback, a stale one, or one for another workspace than the one it started in.
  if (!isStart(start) || !state || state !== start.state || start.workspaceId !== user.workspace.id) return back('failed=oauth_state')
  const code = url.searchParams.get('code')
  if (!code || url.searchParams.get('error')) return back('failed=oauth_denied')
  const result = await exchanged(start, code.slice(0, 2000), url.origin)
  if ('failed' in result) return back(`failed=${result.failed}`)
  const connected = await connectCrm(user, { provider: start.provider, label: start.label, secret: oauthSecret(result.tokens), spreadsheet: start.spreadsheet ?? undefined })
  return connected.ok ? back('done=connect') : back(`failed=${connected.code}`)
}
