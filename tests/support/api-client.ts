/**
 * The tests' API client: openapi-fetch typed by the document's own types (api-schema.d.ts, `npm run api:types`), and
 * every answer checked against the document's schema for its operation and status (Ajv, JSON Schema 2020-12), so a
 * document that lies about the behaviour fails the tests. Requests go through the app's i18n middleware and the /api/v1
 * dispatcher in-process (no build needed); the HTTP layer in front (body limits) is covered by the e2e API spec.
 */
import { randomUUID } from 'node:crypto'
import { Ajv2020 } from 'ajv/dist/2020.js'
import createClient, { type Middleware } from 'openapi-fetch'
import type pg from 'pg'
import { RouterContextProvider } from 'react-router'
import { handleApiRequest } from '#app/.server/api-v1/dispatch.ts'
import { createApiKey } from '#app/.server/api-v1/keys.ts'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { i18nextMiddleware } from '#app/.server/i18n.ts'
import type { paths } from './api-schema.d.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

export const API_ORIGIN = 'http://api.test'

/** One request through the app's middleware that the API relies on (the language) and the dispatcher. */
export async function appFetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request && !init ? input : new Request(input, init)
  const context = new RouterContextProvider()
  const middleware = i18nextMiddleware as unknown as (args: { request: Request; context: RouterContextProvider; params: object }, next: () => Promise<Response>) => Promise<Response>
  return middleware({ request, context, params: {} }, () => handleApiRequest(request, context))
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
ajv.addSchema({ ...(structuredClone(openApiDocument()) as object), $id: 'openapi' })

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

/** Fails the request when its answer does not match the document (status documented, body valid). */
const conformance: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const method = request.method.toLowerCase()
    const operation = (openApiDocument().paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>)[schemaPath]?.[method]
    const documented = operation?.responses[String(response.status)]
    if (!documented) throw new Error(`${request.method} ${schemaPath} answered ${response.status}, which the document does not list`)
    const type = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim()
    if (!documented.content || response.status === 204) return undefined
    if (!documented.content[type]) throw new Error(`${request.method} ${schemaPath} ${response.status} answered ${type}, documented ${Object.keys(documented.content).join(', ')}`)
    if (!type.includes('json')) return undefined
    const validate = ajv.getSchema(`openapi#/${pointer('paths', schemaPath, method, 'responses', String(response.status), 'content', type, 'schema')}`)
    const body: unknown = await response.clone().json()
    if (validate && !validate(body)) throw new Error(`${request.method} ${schemaPath} ${response.status}: the body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`)
    return undefined
  },
}

export function createApiClient(apiKey: string | null, headers: Record<string, string> = {}) {
  const client = createClient<paths>({
    baseUrl: API_ORIGIN,
    fetch: (request: Request) => appFetch(request),
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...headers },
  })
  client.use(conformance)
  return client
}

export type ApiClient = ReturnType<typeof createApiClient>

/** A new user with `credits` credits (the sign-up grant adjusted through the ledger) and an API key of theirs. */
export async function createApiUser(admin: pg.Pool, credits = 100): Promise<{ user: SessionUser; key: string; keyId: string; api: ApiClient }> {
  const id = randomUUID()
  const email = `${id}@example.test`
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, email, {}])
  const { rows } = await admin.query<{ remaining_credits: number }>('select remaining_credits from public.user_credits where user_id = $1', [id])
  const delta = credits - rows[0]!.remaining_credits
  if (delta) await admin.query(`select public.apply_credit_change($1, $2, 'adjustment', $3)`, [id, delta, `test:${randomUUID()}`])
  const user: SessionUser = personalSession(id, email)
  const created = await createApiKey(user, 'test key')
  if (!created) throw new Error('createApiUser: no key created')
  return { user, key: created.key, keyId: created.id, api: createApiClient(created.key) }
}
