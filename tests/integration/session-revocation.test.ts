// Sign-out revokes the session on the server (issue 28, item 6): the access token in a cookie copied before sign-out
// is still signed and unexpired, but the app checks its session id against the auth server's sessions on every
// request, so the copy opens nothing. Through the app's own request path (the Supabase middleware and
// getOptionalUser), against the local auth server of the test stack.
import crypto from 'node:crypto'
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import { RouterContextProvider } from 'react-router'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { getOptionalUser, type SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { supabaseMiddleware } from '#app/.server/supabase.ts'

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.SUPABASE_URL = inject('supabaseUrl')
  process.env.SUPABASE_ANON_KEY = inject('supabaseAnonKey')
})
afterAll(() => closeDb())

/** A browser's cookie jar, signed in through @supabase/ssr as the app's sign-in form does. */
function browserClient() {
  const jar = new Map<string, string>()
  const client = createServerClient(inject('supabaseUrl'), inject('supabaseAnonKey'), {
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cookies) => {
        for (const { name, value } of cookies) {
          if (value) jar.set(name, value)
          else jar.delete(name)
        }
      },
    },
    auth: { detectSessionInUrl: false },
  })
  const cookie = () => [...jar].map(([name, value]) => serializeCookieHeader(name, value, {}).split(';')[0]).join('; ')
  return { client, cookie }
}

/** The user the app sees for a request carrying `cookie`. */
async function userFor(cookie: string): Promise<SessionUser | null> {
  const request = new Request('http://app.test/settings', { headers: { Cookie: cookie } })
  const context = new RouterContextProvider()
  let user: SessionUser | null = null
  await (supabaseMiddleware as unknown as (args: { request: Request; context: RouterContextProvider; params: object }, next: () => Promise<Response>) => Promise<Response>)(
    { request, context, params: {} },
    async () => {
      user = await getOptionalUser(context)
      return new Response('ok')
    },
  )
  return user
}

test('a cookie copied before sign-out no longer resolves a user after it, although its token has not expired', async () => {
  const email = `revoke-${crypto.randomUUID().slice(0, 8)}@example.com`
  const browser = browserClient()
  const { error } = await browser.client.auth.signUp({ email, password: 'correct horse 1' })
  expect(error).toBeNull()
  const copied = browser.cookie()
  expect(parseCookieHeader(copied).length).toBeGreaterThan(0)
  expect((await userFor(copied))?.email).toBe(email)

  // Another device of the same user keeps its own session.
  const other = browserClient()
  expect((await other.client.auth.signInWithPassword({ email, password: 'correct horse 1' })).error).toBeNull()

  expect((await browser.client.auth.signOut({ scope: 'local' })).error).toBeNull()
  expect(await userFor(copied)).toBeNull()
  expect((await userFor(other.cookie()))?.email).toBe(email)
})
