import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import type { SupabaseClient } from '@supabase/supabase-js'
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { env } from './env.server.ts'
import { clientIp } from './internal-headers.ts'
import { isPublicApiRequest } from '#app/.server/api-v1/operation.ts'

const AUTH_TIMEOUT_MS = 15_000

const supabaseContext = createContext<SupabaseClient | null>(null)
const cookieHeaderContext = createContext<string | null>(null)

/**
 * One Supabase client per request. Whatever cookies it writes (sign-in, token refresh,
 * sign-out) are collected and appended to the response this request produces, whichever
 * loader or action triggered them.
 */
export const supabaseMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (isPublicApiRequest(request)) return next()
  // Keyed by name: the client may report the same cookie several times in one request; the last value wins.
  const setCookies = new Map<string, string>()
  const extraHeaders = new Headers()
  const supabase = createServerClient(env.supabaseUrl, env.supabaseAnonKey, {
    cookies: {
      getAll: () =>
        parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
      setAll: (cookies, headers) => {
        for (const { name, value, options } of cookies) {
          setCookies.set(name, serializeCookieHeader(name, value, options))
        }
        for (const [key, value] of Object.entries(headers ?? {})) extraHeaders.set(key, value)
      },
    },
    // The browser never reads the session: keep it out of reach of page scripts.
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure: env.secureCookies, path: '/' },
    auth: { detectSessionInUrl: false },
    global: {
      // The local auth server limits /verify and /token per client, as GoTrue does behind its proxy.
      headers: { 'X-Forwarded-For': clientIp(request) },
      // An auth service that accepts the connection but never answers must not hang the page.
      fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(AUTH_TIMEOUT_MS)]) : AbortSignal.timeout(AUTH_TIMEOUT_MS) }),
    },
  })
  context.set(supabaseContext, supabase)
  context.set(cookieHeaderContext, request.headers.get('Cookie'))
  const response = await next()
  if (setCookies.size) {
    for (const cookie of setCookies.values()) response.headers.append('Set-Cookie', cookie)
    extraHeaders.forEach((value, key) => response.headers.set(key, value))
  }
  return response
}

export function getSupabase(context: Readonly<RouterContextProvider>): SupabaseClient {
  const supabase = context.get(supabaseContext)
  if (!supabase) throw new Error('supabaseMiddleware must run before getSupabase')
  return supabase
}

/** The request's Cookie header, for what the session reads beside the auth cookies (the workspace switcher's choice). */
export function getCookieHeader(context: Readonly<RouterContextProvider>): string | null {
  return context.get(cookieHeaderContext)
}
