/**
 * Serves /api/v1 (../shared/API.md): the key, the per-key rate limit, the request checks, then the operation. Every
 * refusal is problem+json with a stable code, and every answer carries RateLimit-* headers once the key is known.
 * Cookies are never read here: a browser session does not open the API, so there is no CSRF surface.
 */
import { isRouteErrorResponse, type RouterContextProvider } from 'react-router'
import type { z } from 'zod'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { isRejection, REJECTION_HEADER, REJECTIONS } from '#app/.server/internal-headers.ts'
import { consumeLimit, meterLimit, refused } from '#app/.server/rate-limit.ts'
import { isLanguage } from '#app/i18n.ts'
import { authenticateApiKey } from './keys.ts'
import { API_BASE, type ApiAnswer, type ApiContext, type ApiOperation } from './operation.ts'
import { API_OPERATIONS } from './operations/index.ts'
import { openApiDocument } from './openapi.ts'
import { ApiProblem, apiProblem, problemBody, type ProblemFieldError } from './problem.ts'

interface Route {
  operation: ApiOperation
  pattern: RegExp
  names: string[]
}

const ROUTES: Route[] = API_OPERATIONS.map((operation) => {
  const names: string[] = []
  const source = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_match: string, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  return { operation, pattern: new RegExp(`^${source}$`), names }
})

function match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } {
  const allowed: string[] = []
  for (const route of ROUTES) {
    const found = route.pattern.exec(path)
    if (!found) continue
    if (route.operation.method.toUpperCase() !== method && !(method === 'HEAD' && route.operation.method === 'get')) {
      allowed.push(route.operation.method.toUpperCase())
      continue
    }
    const params: Record<string, string> = {}
    route.names.forEach((name, index) => {
      params[name] = safeDecode(found[index + 1]!)
    })
    return { route, params }
  }
  return { allowed }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const containsNul = (text: string) => text.includes('\0') || /%00|\\u0000/i.test(text)

/** The issues of a refused input, as `errors` (path "body.criteria.country", "query.limit", …). */
function fieldErrors(where: string, error: z.ZodError, t: ApiContext['t']): ProblemFieldError[] {
  return error.issues.slice(0, 20).map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    // Schema messages shared with the forms are i18n keys; zod's own are English sentences.
    message: issue.message.includes('.') && !issue.message.includes(' ') ? t(issue.message) : issue.message,
  }))
}

function parsePart<T extends z.ZodType | undefined>(schema: T, value: unknown, where: string, t: ApiContext['t']): unknown {
  if (!schema) return undefined
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  if (where === 'path') apiProblem(404, 'not_found', t('api.v1.notFound'))
  return apiProblem(422, 'validation_failed', t('api.v1.validationFailed'), fieldErrors(where, parsed.error, t))
}

async function readBody(request: Request, t: ApiContext['t']): Promise<unknown> {
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase()
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) apiProblem(415, 'unsupported_media_type', t('api.v1.unsupportedType'))
  const text = await request.text()
  if (containsNul(text)) apiProblem(400, 'bad_json', t('errorPage.badCharacters'))
  try {
    return JSON.parse(text)
  } catch {
    return apiProblem(400, 'bad_json', t('api.badJson'))
  }
}

/** The headers an operation declares (names as documented, matched case-insensitively). */
function namedHeaders(schema: z.ZodType | undefined, request: Request): Record<string, string | undefined> {
  const shape = schema && 'shape' in schema ? (schema.shape as Record<string, unknown>) : {}
  return Object.fromEntries(Object.keys(shape).map((name) => [name, request.headers.get(name) ?? undefined]))
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [name, value] of params) if (!(name in values)) values[name] = value
  return values
}

function answer(result: ApiAnswer, headers: Headers): Response {
  if ('response' in result) {
    for (const [name, value] of headers) result.response.headers.set(name, value)
    return result.response
  }
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value)
  if (result.status === 204 || result.body === undefined) return new Response(null, { status: result.status, headers })
  headers.set('Content-Type', 'application/json; charset=utf-8')
  return new Response(JSON.stringify(result.body), { status: result.status, headers })
}

function problemResponse(problem: ApiProblem, request: Request, headers: Headers): Response {
  for (const [name, value] of Object.entries(problem.headers)) headers.set(name, value)
  headers.set('Content-Type', 'application/problem+json; charset=utf-8')
  return new Response(JSON.stringify(problemBody(problem, new URL(request.url).origin)), { status: problem.status, headers })
}

async function authenticate(request: Request, t: ApiContext['t']) {
  const authorization = request.headers.get('Authorization') ?? ''
  const [scheme, token] = authorization.split(/\s+/, 2)
  const owner = scheme?.toLowerCase() === 'bearer' && token ? await authenticateApiKey(token) : null
  if (!owner) apiProblem(401, 'invalid_api_key', t('api.v1.invalidKey'), undefined, { 'WWW-Authenticate': 'Bearer realm="LeadAtlas API"' })
  return owner
}

/** Counts the request against the key's limit; the state goes into every answer's RateLimit-* headers. */
async function meterKey(keyId: string, headers: Headers, t: ApiContext['t']) {
  const meter = await meterLimit('apiKey', keyId)
  if (!meter) apiProblem(503, 'service_unavailable', t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' })
  headers.set('RateLimit-Limit', String(meter.limit))
  headers.set('RateLimit-Remaining', String(meter.remaining))
  headers.set('RateLimit-Reset', String(meter.resetSeconds))
  if (!meter.ok) apiProblem(429, 'rate_limited', t('rateLimit.tooMany', { count: Math.max(1, Math.ceil(meter.resetSeconds / 60)) }), undefined, { 'Retry-After': String(meter.resetSeconds) })
}

async function run(request: Request, context: Readonly<RouterContextProvider>, headers: Headers): Promise<Response> {
  const t = getInstance(context).t
  const url = new URL(request.url)
  const path = url.pathname.slice(API_BASE.length) || '/'
  if (path === '/openapi.json' && (request.method === 'GET' || request.method === 'HEAD')) {
    return answer({ status: 200, body: openApiDocument(url.origin) }, headers)
  }
  const owner = await authenticate(request, t)
  await meterKey(owner.keyId, headers, t)

  const rejection = request.headers.get(REJECTION_HEADER)
  if (isRejection(rejection)) {
    if (rejection === 'too-large') apiProblem(413, 'payload_too_large', t('errorPage.tooLarge'))
    if (rejection === 'unsupported-encoding') apiProblem(415, 'unsupported_media_type', t('api.v1.unsupportedType'))
    if (rejection === 'method') apiProblem(405, 'method_not_allowed', t('errorPage.methodNotAllowed'))
    apiProblem(REJECTIONS[rejection], 'bad_json', t('api.badJson'))
  }
  if (containsNul(url.pathname) || containsNul(url.search)) apiProblem(400, 'validation_failed', t('errorPage.badCharacters'))

  const found = match(request.method, path)
  if (!('route' in found)) {
    if (found.allowed.length) apiProblem(405, 'method_not_allowed', t('errorPage.methodNotAllowed'), undefined, { Allow: [...new Set(found.allowed)].join(', ') })
    apiProblem(404, 'not_found', t('api.v1.notFound'))
  }
  const { operation } = found.route
  const locale = getLocale(context)
  const ctx: ApiContext = { request, context, user: owner.user, keyId: owner.keyId, t, lang: isLanguage(locale) ? locale : 'en' }
  const params = parsePart(operation.params, found.params, 'path', t)
  const query = parsePart(operation.query, firstValues(url.searchParams), 'query', t)
  const headerValues = parsePart(operation.headers, namedHeaders(operation.headers, request), 'header', t)
  const body = operation.body ? parsePart(operation.body, await readBody(request, t), 'body', t) : undefined
  if (operation.limit) {
    const refusal = refused(await consumeLimit(operation.limit, owner.user.id))
    if (refusal && 'unavailable' in refusal) apiProblem(503, 'service_unavailable', t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' })
    if (refusal) apiProblem(429, 'rate_limited', t('rateLimit.tooMany', { count: Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60)) }), undefined, { 'Retry-After': String(refusal.retryAfterSeconds) })
  }
  return answer(await operation.handler({ ctx, params, query, headers: headerValues, body }), headers)
}

export async function handleApiRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  try {
    return await run(request, context, headers)
  } catch (error) {
    if (error instanceof ApiProblem) return problemResponse(error, request, headers)
    // withUser's "database unavailable" (a data() 503): still problem+json for an API client.
    if (isRouteErrorResponse(error) || isDataWithStatus(error)) {
      const status = isRouteErrorResponse(error) ? error.status : error.init?.status
      if (status === 503) return problemResponse(new ApiProblem(503, 'service_unavailable', getInstance(context).t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' }), request, headers)
    }
    throw error
  }
}

function isDataWithStatus(error: unknown): error is { init?: { status?: number } } {
  return Boolean(error && typeof error === 'object' && 'type' in error && (error as { type?: unknown }).type === 'DataWithResponseInit')
}
