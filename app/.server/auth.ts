import { sql } from 'kysely'
import { createContext, data, redirect, type RouterContextProvider } from 'react-router'
import { isUuid } from '#app/domain/ids.ts'
import { adminDb } from './db.ts'
import { isDatabaseUnavailable } from './db-errors.ts'
import { noteRequestUser } from './observability/request-context.ts'
import { getCookieHeader, getSupabase } from './supabase.ts'
import { chooseWorkspace, readMemberships, readWorkspaceChoice, type Membership } from './workspaces/current.ts'
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
  if (!claims || !(await sessionIsActive(claims))) return null
  noteRequestUser(claims.sub)
  const workspaces = await memberships(claims.sub)
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

/** The user's workspaces; one who left every team gets a new personal workspace rather than none. */
async function memberships(userId: string): Promise<Membership[]> {
  try {
    const found = await readMemberships(userId)
    if (found.length) return found
    await ensurePersonalWorkspace(userId)
    return await readMemberships(userId)
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw data({ error: 'database_unavailable' }, { status: 503, headers: { 'Retry-After': '5' } })
    throw error
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
 * Whether the token's session still exists on the auth server (auth.sessions, the table GoTrue and the local auth
 * server keep; sign-out deletes its row). A signed token stays valid until it expires (an hour): without this check,
 * a cookie copied before sign-out would open pages until then. One primary-key read per signed-in request, so a
 * revocation holds at once in every process. A token without a session id is not a sign-in's.
 */
async function sessionIsActive(claims: SessionUser['claims']): Promise<boolean> {
  const sessionId = claims.session_id
  if (typeof sessionId !== 'string' || !isUuid(sessionId) || !isUuid(claims.sub)) return false
  try {
    const row = await sql<{ one: number }>`select 1 as one from auth.sessions where id = ${sessionId}::uuid and user_id = ${claims.sub}::uuid`.execute(adminDb())
    return row.rows.length > 0
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

