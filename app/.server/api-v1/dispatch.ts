/**
 * Serves /api/v1 (../shared/API.md): the key, the per-key rate limit, the request checks, then the operation. Every
 * refusal is problem+json with a stable code, and every answer carries RateLimit-* headers once the key is known.
 * Cookies are never read here: a browser session does not open the API, so there is no CSRF surface.
 */
import { isForbiddenRole } from '#app/.server/workspaces/roles.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { isRouteErrorResponse, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { getInstance } from '#app/.server/i18n.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'
import { clientIp, isRejection, REJECTION_HEADER, REJECTIONS } from '#app/.server/internal-headers.ts'
import { componentLogger } from '#app/.server/observability/logger.ts'
import { apiAuthFailureBlockedSeconds, countApiAuthFailure, meterLimit, rewardLimit } from '#app/.server/rate-limit.ts'
import { REFUNDED_WHEN_REFUSED, type LimitName, type MeteredOutcome } from '#app/.server/rate-limiter.ts'
import { decodeCursor, InvalidCursor } from './cursor.ts'
import { authenticateApiKey } from './keys.ts'
import { API_BASE, type ApiAnswer, type ApiContext, type ApiOperation, type UploadedFile } from './operation.ts'
import { API_OPERATIONS } from './operations/index.ts'
import { openApiDocument } from './openapi.ts'
import { ApiProblem, apiProblem, problemBody, type ProblemFieldError } from './problem.ts'
import { unknownFields } from './unknown-fields.ts'

const log = componentLogger('api')

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
  // Query and body are exact: a key the operation does not name is refused, never dropped (unknown-fields.ts).
  const exact = where === 'query' || where === 'body'
  const unknown = !exact ? [] : schema ? unknownFields(schema, value) : Object.keys(value ?? {}).slice(0, 20)
  if (!schema && !unknown.length) return undefined
  if (unknown.length) {
    return apiProblem(422, 'validation_failed', t('api.v1.validationFailed'), unknown.map((path) => ({ path: `${where}.${path}`, message: t('api.v1.unknownField') })))
  }
  const parsed = schema!.safeParse(value)
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

/**
 * A multipart request's fields as text (a repeated field as a list) and its one file: the file's bytes are data (NULs
 * and all), the fields must be text. Validated like a body (path "body.<field>").
 */
async function readUpload(request: Request, spec: NonNullable<ApiOperation['upload']>, t: ApiContext['t']): Promise<{ fields: unknown; file: UploadedFile }> {
  const form = await request.formData().catch(() => apiProblem(400, 'bad_json', t('errorPage.malformed')))
  const fields: Record<string, string | string[]> = {}
  let file: UploadedFile | undefined
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string') {
      if (name === spec.file && !file) file = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) }
      else apiProblem(422, 'validation_failed', t('api.v1.validationFailed'), [{ path: `body.${name}`, message: t('api.v1.unknownField') }])
      continue
    }
    if (containsNul(value)) apiProblem(400, 'bad_json', t('errorPage.badCharacters'))
    const before = fields[name]
    fields[name] = before === undefined ? value : [before, value].flat()
  }
  if (!file) apiProblem(422, 'validation_failed', t('api.v1.validationFailed'), [{ path: `body.${spec.file}`, message: t('api.v1.fileRequired') }])
  return { fields: parsePart(spec.schema, { ...fields, [spec.file]: file.name }, 'body', t), file }
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

const rateLimited = (t: ApiContext['t'], seconds: number): never =>
  apiProblem(429, 'rate_limited', t('rateLimit.tooMany', { count: Math.max(1, Math.ceil(seconds / 60)) }), undefined, { 'Retry-After': String(seconds) })

/**
 * The key's owner. A client address with too many failed keys (RATE_LIMIT_API_AUTH_FAIL_IP) is refused first, from
 * memory, before the key is even looked up: guessing keys from one address cannot load the database for others.
 */
async function authenticate(request: Request, t: ApiContext['t']) {
  const ip = clientIp(request)
  const blocked = apiAuthFailureBlockedSeconds(ip)
  if (blocked) rateLimited(t, blocked)
  const authorization = request.headers.get('Authorization') ?? ''
  const [scheme, token] = authorization.split(/\s+/, 2)
  const owner = scheme?.toLowerCase() === 'bearer' && token ? await authenticateApiKey(token) : null
  if (!owner) {
    const refusal = await countApiAuthFailure(ip)
    if (refusal) rateLimited(t, refusal)
    apiProblem(401, 'invalid_api_key', t('api.v1.invalidKey'), undefined, { 'WWW-Authenticate': 'Bearer realm="LeadAtlas API"' })
  }
  return owner
}

/** The limits a request was counted against, for the RateLimit-* headers and the refund of a refused command. */
type Meters = Array<{ name: LimitName; key: string; meter: MeteredOutcome }>

/** Counts the request against `name` (RateLimit-* state kept in `meters`); 429 past it, 503 when uncountable. */
async function meter(meters: Meters, name: LimitName, key: string, t: ApiContext['t']) {
  const outcome = await meterLimit(name, key)
  if (!outcome) apiProblem(503, 'service_unavailable', t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' })
  meters.push({ name, key, meter: outcome })
  if (!outcome.ok) rateLimited(t, outcome.resetSeconds)
}

/** The RateLimit-* headers of the tightest limit counted: a refused one first, else the fewest requests left. */
function setRateLimitHeaders(meters: Meters, headers: Headers) {
  const tightest = [...meters].sort((a, b) => Number(a.meter.ok) - Number(b.meter.ok) || a.meter.remaining - b.meter.remaining || b.meter.resetSeconds - a.meter.resetSeconds)[0]
  if (!tightest) return
  headers.set('RateLimit-Limit', String(tightest.meter.limit))
  headers.set('RateLimit-Remaining', String(tightest.meter.remaining))
  headers.set('RateLimit-Reset', String(tightest.meter.resetSeconds))
}

async function run(request: Request, context: Readonly<RouterContextProvider>, headers: Headers, meters: Meters): Promise<Response> {
  const t = getInstance(context).t
  const url = new URL(request.url)
  const path = url.pathname.slice(API_BASE.length) || '/'
  if (path === '/openapi.json' && (request.method === 'GET' || request.method === 'HEAD')) {
    return answer({ status: 200, body: openApiDocument(url.origin) }, headers)
  }
  const owner = await authenticate(request, t)
  // Per key, and per user across all their keys (more keys do not buy more requests).
  await meter(meters, 'apiKey', owner.keyId, t)
  await meter(meters, 'apiUser', owner.user.id, t)

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
  if (operation.requires && !can(owner.user.workspace.role, operation.requires)) apiProblem(403, 'forbidden_role', t('team.errors.forbiddenRole'))
  const ctx: ApiContext = { request, context, user: owner.user, keyId: owner.keyId, t }
  const params = parsePart(operation.params, found.params, 'path', t)
  // A forged cursor is the caller's bug whatever else the query holds: 400 invalid_cursor first.
  if (takesCursor(operation)) checkCursor(url.searchParams.get('cursor'))
  const query = parsePart(operation.query, firstValues(url.searchParams), 'query', t)
  const headerValues = parsePart(operation.headers, namedHeaders(operation.headers, request), 'header', t)
  const multipart = operation.upload !== undefined && (request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')
  const upload = multipart ? await readUpload(request, operation.upload!, t) : undefined
  const body = !multipart && operation.body ? parsePart(operation.body, await readBody(request, t), 'body', t) : undefined
  const input = { ctx, params, query, headers: headerValues, body, upload }
  // A replay (the same Idempotency-Key) creates nothing: its stored answer is given even past the command's limit.
  const counted = operation.limit && !(await operation.isReplay?.(input)) ? operation.limit : undefined
  if (counted) await meter(meters, counted, owner.user.id, t)
  try {
    return answer(await operation.handler(input), headers)
  } catch (error) {
    // A refusal (plan, credits, validation, conflict…) made nothing: a budget of things made gives its point back.
    if (counted && REFUNDED_WHEN_REFUSED.has(counted) && error instanceof ApiProblem && error.status >= 400 && error.status < 500) await refund(meters, counted)
    throw error
  }
}

async function refund(meters: Meters, name: LimitName) {
  const counted = meters.find((entry) => entry.name === name)
  if (!counted) return
  const outcome = await rewardLimit(name, counted.key)
  if (outcome.ok) counted.meter = { ...counted.meter, remaining: Math.min(counted.meter.limit, counted.meter.remaining + 1) }
}

/** What any list's cursor holds (encodeCursor): a few strings and integers. */
const AnyPosition = z.array(z.union([z.string().max(200), z.number()])).min(1).max(8)

/**
 * Any list's `?cursor=`, checked before its operation runs (which may look up a resource first): base64url JSON of a
 * position, each value in range (cursor.ts). Its exact shape is the operation's own decodeCursor().
 */
const takesCursor = (operation: ApiOperation) => Boolean(operation.query && 'shape' in operation.query && 'cursor' in (operation.query.shape as object))

function checkCursor(cursor: string | null) {
  if (cursor !== null) decodeCursor(cursor, AnyPosition)
}

export async function handleApiRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const meters: Meters = []
  let response: Response
  try {
    response = await run(request, context, headers, meters)
  } catch (error) {
    response = failure(error, request, context, headers)
  }
  // Last: a refused command's refund shows in them.
  setRateLimitHeaders(meters, response.headers)
  return response
}

/** Every way out but success is problem+json: refusals with their code, anything unexpected logged (scrubbed) as a 500. */
function failure(error: unknown, request: Request, context: Readonly<RouterContextProvider>, headers: Headers): Response {
  const t = getInstance(context).t
  if (error instanceof ApiProblem) return problemResponse(error, request, headers)
  if (isForbiddenRole(error)) return problemResponse(new ApiProblem(403, 'forbidden_role', t('team.errors.forbiddenRole')), request, headers)
  if (error instanceof InvalidCursor) return problemResponse(new ApiProblem(400, 'invalid_cursor', t('api.v1.badCursor'), [{ path: 'query.cursor', message: t('api.v1.badCursor') }]), request, headers)
  const unavailable = new ApiProblem(503, 'service_unavailable', t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' })
  // withUser's "database unavailable" (a data() 503): still problem+json for an API client.
  if (isRouteErrorResponse(error) || isDataWithStatus(error)) {
    const status = isRouteErrorResponse(error) ? error.status : error.init?.status
    if (status === 503) return problemResponse(unavailable, request, headers)
  }
  if (isDatabaseUnavailable(error)) {
    log.error({ err: error }, '[api] database unavailable')
    return problemResponse(unavailable, request, headers)
  }
  if (request.signal.aborted) return new Response(null, { status: 499, headers })
  log.error({ err: error, method: request.method, path: new URL(request.url).pathname }, '[api] unexpected error')
  return problemResponse(new ApiProblem(500, 'internal_error', t('api.v1.internalError')), request, headers)
}

function isDataWithStatus(error: unknown): error is { init?: { status?: number } } {
  return Boolean(error && typeof error === 'object' && 'type' in error && (error as { type?: unknown }).type === 'DataWithResponseInit')
}
