import type { APIRequestContext, Page, Response } from '@playwright/test'
import { DEFAULT_PASSWORD, type TestUser, uniqueEmail } from './users.ts'

/** Resolves with the next document POST to `pathname`: the browser's own form post, i.e. without JS. */
export function nextDocumentPost(page: Page, pathname: string): Promise<Response> {
  return page.waitForResponse((response) => {
    const request = response.request()
    return request.method() === 'POST' && request.resourceType() === 'document' && new URL(request.url()).pathname === pathname
  })
}

/** The next POST to `pathname` by the page: a document post without JS, a `.data` fetch with JS. */
export function nextPost(page: Page, pathname: string): Promise<Response> {
  return page.waitForResponse((response) => {
    const request = response.request()
    const path = new URL(request.url()).pathname
    return request.method() === 'POST' && (path === pathname || path === `${pathname}.data`)
  })
}

/** Same-origin headers for direct form posts (the server refuses cross-site posts). */
export function sameOrigin(baseURL: string | undefined) {
  return { Origin: new URL(baseURL!).origin }
}

/**
 * Creates an account with a plain form post (no browser), for tests where sign-up is not what
 * is being tested. `request` keeps its own cookies, so the page stays signed out.
 */
export async function createUser(request: APIRequestContext, baseURL: string | undefined, user: Partial<TestUser> = {}): Promise<TestUser> {
  const created = { email: user.email ?? uniqueEmail('api'), password: user.password ?? DEFAULT_PASSWORD }
  const response = await request.post('/login?mode=signup', {
    form: { intent: 'signup', email: created.email, password: created.password },
    headers: sameOrigin(baseURL),
    maxRedirects: 0,
  })
  if (response.status() !== 302) throw new Error(`sign-up of ${created.email} failed: ${response.status()} ${await response.text()}`)
  return created
}

/**
 * Creates an account through the page's own request context, which shares the browser's
 * cookies: the page is then signed in without going through the UI (sign-up opens a session).
 */
export async function signUpViaRequest(page: Page, baseURL: string | undefined, user: Partial<TestUser> = {}): Promise<TestUser> {
  return createUser(page.request, baseURL, user)
}
