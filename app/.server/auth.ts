import { createContext, redirect, type RouterContextProvider } from 'react-router'
import { noteRequestUser } from './observability/request-context.ts'
import { getSupabase } from './supabase.ts'

export interface SessionUser {
  id: string
  email: string
  /** Verified JWT claims, forwarded to Postgres so row-level security sees the same user. */
  claims: { sub: string; role: string; email?: string; [key: string]: unknown }
  metadata: Record<string, unknown>
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
  const supabase = getSupabase(context)
  try {
    const { data, error } = await supabase.auth.getClaims()
    if (error || !data?.claims?.sub) return null
    const claims = data.claims as SessionUser['claims']
    noteRequestUser(claims.sub)
    return {
      id: claims.sub,
      email: String(claims.email ?? ''),
      claims,
      metadata: (claims.user_metadata as Record<string, unknown>) ?? {},
    }
  } catch {
    return null
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

