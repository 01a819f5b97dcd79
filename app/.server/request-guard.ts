import { data, type MiddlewareFunction } from 'react-router'
import { getInstance } from './i18n.ts'
import { isRejection, REJECTION_HEADER, REJECTIONS, type Rejection } from './internal-headers.ts'
import { isPublicApiRequest } from '#app/.server/api-v1/operation.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Pages take form posts only; /api routes also take JSON and DELETE (SPEC §7). */
const PAGE_METHODS = ['GET', 'HEAD', 'POST']
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

const REJECTION_MESSAGES: Record<Rejection, string> = {
  'too-large': 'errorPage.tooLarge',
  'unsupported-encoding': 'errorPage.unsupportedType',
  malformed: 'errorPage.malformed',
  method: 'errorPage.methodNotAllowed',
}

/**
 * A 405 must say what is allowed (RFC 9110). Runs before the guard: a middleware that throws
 * hands the rendered error page back to the middlewares above it.
 */
export const allowHeaderMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next()
  if (response.status === 405 && !response.headers.has('Allow') && !new URL(request.url).pathname.startsWith('/api/')) {
    response.headers.set('Allow', PAGE_METHODS.join(', '))
  }
  return response
}

/**
 * Refuses, with a localized 4xx, what actions and loaders cannot handle: requests the HTTP layer
 * marked (too large, unreadable), NUL bytes (Postgres text cannot hold them), methods a page has no
 * use for, and page posts that are not readable forms. Runs right after the i18n middleware, so
 * every refusal is in the user's language; pages render it in the error boundary, /api gets JSON.
 */
export const requestGuardMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (isPublicApiRequest(request)) return next()
  const t = getInstance(context).t
  const refuse = (status: number, key: string): never => {
    throw data({ error: key.split('.').pop(), message: t(key) }, { status })
  }

  const rejection = request.headers.get(REJECTION_HEADER)
  if (isRejection(rejection)) refuse(REJECTIONS[rejection], REJECTION_MESSAGES[rejection])

  const url = new URL(request.url)
  if (containsNul(url.pathname) || containsNul(url.search)) refuse(400, 'errorPage.badCharacters')
  if (SAFE_METHODS.has(request.method)) return next()

  const isApi = url.pathname.startsWith('/api/')
  if (!isApi && !PAGE_METHODS.includes(request.method)) refuse(405, 'errorPage.methodNotAllowed')

  const type = (request.headers.get('Content-Type') ?? '').toLowerCase()
  if (!isApi && type.startsWith('multipart/form-data')) {
    // An uploaded file is bytes (an XLSX is a zip: NULs are its data); only the typed fields must be text.
    const form = await request
      .clone()
      .formData()
      .catch(() => refuse(400, 'errorPage.malformed'))
    for (const value of form.values()) if (typeof value === 'string' && containsNul(value)) refuse(400, 'errorPage.badCharacters')
    return next()
  }
  const body = await request.clone().text()
  if (containsNul(body)) refuse(400, 'errorPage.badCharacters')
  if (!isApi) {
    if (!FORM_TYPES.some((formType) => type.startsWith(formType))) refuse(415, 'errorPage.unsupportedType')
    try {
      await request.clone().formData()
    } catch {
      refuse(400, 'errorPage.malformed')
    }
  }
  return next()
}

/** A NUL byte, raw, percent-encoded or JSON-escaped. */
function containsNul(text: string): boolean {
  return text.includes('\0') || /%00|\\u0000/i.test(text)
}
