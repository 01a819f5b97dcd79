import { createContext, data, redirect, type RouterContextProvider } from 'react-router'
import { isUuid } from '#app/domain/ids.ts'
import { isDatabaseUnavailable } from './db-errors.ts'
import { noteRequestUser } from './observability/request-context.ts'
import { getCookieHeader, getSupabase } from './supabase.ts'
import { chooseWorkspace, readMemberships, readSessionMemberships, readWorkspaceChoice, type Membership } from './workspaces/current.ts'
import { ensurePersonalWorkspace } from './workspaces/personal.ts'

export interface SessionUser {
  id: string
  email: string
  /** Verified JWT claims, forwarded to Postgres so row-level security sees the same user. */
  claims: { sub: string; role: string; email?: string; [key: string]: unknown }
  metadata: Record<string, unknown>
  /** The workspace this request acts in (its id is in `claims.workspace_id`, which row-level security reads). */
  workspace: Membership
  /** Every workspace the user belongs to (the switcher). */
  workspaces: Membership[]
}

const userContext = createContext<Promise<SessionUser | null> | null>(null)

/**
 * Resolves the signed-in user once per request, server-side: the access token is refreshed
 * when expired and its signature verified (locally through the JWKS for asymmetric keys).
 */
export function getOptionalUser(context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const cached = context.get(userContext)
  if (cached) return cached
  const pending = resolveUser(context)
  ;(context as RouterContextProvider).set(userContext, pending)
  return pending
}

async function resolveUser(context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const claims = await verifiedClaims(context)
  const workspaces = claims ? await activeMemberships(claims) : null
  if (!claims || !workspaces) return null
  noteRequestUser(claims.sub)
  const workspace = chooseWorkspace(workspaces, await readWorkspaceChoice(getCookieHeader(context)))!
  return {
    id: claims.sub,
    email: String(claims.email ?? ''),
    claims: { ...claims, workspace_id: workspace.id },
    metadata: (claims.user_metadata as Record<string, unknown>) ?? {},
    workspace,
    workspaces,
  }
}


async function verifiedClaims(context: Readonly<RouterContextProvider>): Promise<SessionUser['claims'] | null> {
  try {
    const { data, error } = await getSupabase(context).auth.getClaims()
    if (error || !data?.claims?.sub) return null
    return data.claims as SessionUser['claims']
  } catch {
    return null
  }
}

/**
 * The user's workspaces, or null when the token's session no longer exists on the auth server (auth.sessions, the
 * table GoTrue and the local auth server keep; sign-out deletes its row). A signed token stays valid until it expires
 * (an hour): without this check, a cookie copied before sign-out would open pages until then. One read per signed-in
 * request, with the memberships, so a revocation holds at once in every process. A token without a session id is not
 * a sign-in's. One who left every team gets a new personal workspace rather than none.
 */
async function activeMemberships(claims: SessionUser['claims']): Promise<Membership[] | null> {
  const sessionId = claims.session_id
  if (typeof sessionId !== 'string' || !isUuid(sessionId) || !isUuid(claims.sub)) return null
  try {
    const found = await readSessionMemberships(claims.sub, sessionId)
    if (!found || found.length) return found
    await ensurePersonalWorkspace(claims.sub)
    return await readMemberships(claims.sub)
  } catch (error) {
    // The page cannot be served as anyone: "try again in a moment" (503), not the sign-in page.
    if (isDatabaseUnavailable(error)) throw data({ error: 'database_unavailable' }, { status: 503, headers: { 'Retry-After': '5' } })
    throw error
  }
}

/** Sends anonymous visitors to /login, remembering where they wanted to go (a same-site path only). */
export async function requireUser(context: Readonly<RouterContextProvider>, request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(context)
  if (user) return user
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  const params = new URLSearchParams()
  if (redirectTo !== '/') params.set('redirectTo', redirectTo)
  throw redirect(params.size ? `/login?${params}` : '/login')
}

