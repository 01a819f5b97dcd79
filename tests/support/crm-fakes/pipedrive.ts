/**
 * A local Pipedrive on loopback (node:http only: the integration tests, the e2e run and the bench use it), imitating
 * the shapes of Pipedrive's API as its v2 reference and official client describe them:
 *
 * - envelopes `{ success: true, data, additional_data }`; failures `{ success: false, error, error_info, data: null }`;
 * - `x-api-token` (or an OAuth `Authorization: Bearer`) checked on every request: a missing or wrong one is 401 `unauthorized access`;
 * - GET/POST /api/v2/organizationFields (40-hex `field_code`s, cursor pages), GET/POST/PATCH /api/v2/organizations,
 *   GET /api/v2/organizations/search (`data.items[].item`, custom field values as a list of strings), GET/POST
 *   /api/v2/persons and /api/v2/persons/search (emails as a list of strings in results), POST /api/v1/leads,
 *   GET /api/v1/users/me;
 * - v2's strict input: unknown custom field keys, a string where an object is expected, a varchar over 255
 *   characters are 400 `Validation failed: …`;
 * - the burst limit: more than `burstPer2s` requests in a rolling 2 s is 429 with Retry-After and
 *   `x-ratelimit-remaining: 0` (refused requests do not count, so waiting Retry-After always gets through);
 * - `failNext(status, body?, headers?)`: the next request gets that answer (5xx, 429, anything), before auth;
 *   `failOn(method, path, status, body?)`: the next request to that route does (a refusal of one call in a row's chain).
 *
 * The fake's own rule to refuse one row: an organization whose name contains `INVALID` is 400 with
 * FAKE_INVALID_NAME_ERROR (Pipedrive refuses rows for reasons a test cannot provoke on demand).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** A personal API token's shape: 40 hex characters. */
export const FAKE_PIPEDRIVE_TOKEN = '5f2c8e1a9b7d4c3e6f0a1b2c3d4e5f6a7b8c9d0e'
export const FAKE_INVALID_NAME_ERROR = 'Validation failed: name: Organization name contains a value that is not allowed'
const ERROR_INFO = 'Please check developers.pipedrive.com for more information about Pipedrive API.'
const VARCHAR_MAX = 255

interface FakeField {
  field_code: string
  field_name: string
  field_type: string
  is_custom_field: boolean
  is_optional_response_field: boolean
  options: null
  subfields: null
}

interface FakeOrganization {
  id: number
  name: string
  owner_id: number
  add_time: string
  update_time: string
  is_deleted: boolean
  visible_to: number
  label_ids: number[]
  address: { value: string } | null
  /** By field_code; a field never written is absent (the API answers null for it). */
  custom_fields: Record<string, string | null>
}

interface FakePerson {
  id: number
  name: string
  owner_id: number
  org_id: number | null
  add_time: string
  update_time: string
  is_deleted: boolean
  visible_to: number
  emails: { value: string; primary: boolean; label: string }[]
  phones: { value: string; primary: boolean; label: string }[]
}

interface FakeLead {
  id: string
  title: string
  owner_id: number
  person_id: number | null
  organization_id: number | null
  origin: string
  is_archived: boolean
  add_time: string
}

interface FakeCall {
  method: string
  path: string
  query: Record<string, string>
}

export interface FakePipedrive {
  url: string
  organizations: Map<number, FakeOrganization>
  persons: Map<number, FakePerson>
  leads: Map<string, FakeLead>
  /** Organization fields by field_code (the built-in ones too, `is_custom_field: false`). */
  fields: Map<string, FakeField>
  /** Every request received, refused ones included. */
  readonly requests: number
  /** Requests answered 429 by the burst limit (not the injected ones). */
  readonly throttled: number
  calls: FakeCall[]
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void
  failOn(method: string, path: string, status: number, body?: unknown): void
  close(): Promise<void>
}

interface Reply {
  status: number
  body: unknown
  headers?: Record<string, string>
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
const ok = (data: unknown, additional: unknown = null, status = 200): Reply => ({ status, body: { success: true, data, additional_data: additional } })
const failure = (status: number, error: string): Reply => ({ status, body: { success: false, error, error_info: ERROR_INFO, data: null, additional_data: null } })
const invalid = (message: string) => new Refusal(400, `Validation failed: ${message}`)

const BUILT_IN_FIELDS: [string, string, string][] = [
  ['id', 'ID', 'int'],
  ['name', 'Name', 'varchar'],
  ['owner_id', 'Owner', 'user'],
  ['address', 'Address', 'address'],
  ['label_ids', 'Labels', 'set'],
  ['visible_to', 'Visible to', 'visible_to'],
  ['add_time', 'Organization created', 'date'],
  ['update_time', 'Update time', 'date'],
]
const FIELD_TYPES = new Set(['varchar', 'text', 'double', 'phone', 'date', 'daterange', 'time', 'timerange', 'set', 'enum', 'varchar_auto', 'address', 'monetary', 'org', 'people', 'user'])
const SEARCHABLE_TYPES = new Set(['varchar', 'varchar_auto', 'text', 'double', 'monetary', 'phone', 'address'])

function field(code: string, name: string, type: string, custom: boolean): FakeField {
  return { field_code: code, field_name: name, field_type: type, is_custom_field: custom, is_optional_response_field: false, options: null, subfields: null }
}

function matches(value: string | null | undefined, term: string, exact: boolean): boolean {
  if (!value) return false
  const [a, b] = [value.toLowerCase(), term.toLowerCase()]
  return exact ? a.trim() === b.trim() : a.includes(b)
}

/** The state and the routes of one fake account. */
function createAccount() {
  const organizations = new Map<number, FakeOrganization>()
  const persons = new Map<number, FakePerson>()
  const leads = new Map<string, FakeLead>()
  const fields = new Map(BUILT_IN_FIELDS.map(([code, name, type]) => [code, field(code, name, type, false)]))
  let nextId = 1
  const customFields = () => [...fields.values()].filter((candidate) => candidate.is_custom_field)

  function organizationView(organization: FakeOrganization) {
    const custom = Object.fromEntries(customFields().map((candidate) => [candidate.field_code, organization.custom_fields[candidate.field_code] ?? null]))
    return { ...organization, custom_fields: custom }
  }

  function customValues(input: unknown): Record<string, string | null> {
    if (input === undefined) return {}
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalid('custom_fields: must be an object')
    const out: Record<string, string | null> = {}
    for (const [code, value] of Object.entries(input)) {
      const known = fields.get(code)
      if (!known?.is_custom_field) throw invalid(`custom_fields: unknown custom field key: ${code}`)
      if (value !== null && typeof value !== 'string') throw invalid(`custom_fields.${code}: must be a string`)
      if (typeof value === 'string' && known.field_type === 'varchar' && value.length > VARCHAR_MAX) throw invalid(`custom_fields.${code}: must be at most ${VARCHAR_MAX} characters`)
      out[code] = value
    }
    return out
  }

  function organizationInput(body: Record<string, unknown>, creating: boolean) {
    const { name, address } = body
    if (creating && (typeof name !== 'string' || !name.trim())) throw invalid('name: is required')
    if (name !== undefined && (typeof name !== 'string' || name.length > VARCHAR_MAX)) throw invalid('name: must be a string of at most 255 characters')
    if (typeof name === 'string' && name.includes('INVALID')) throw new Refusal(400, FAKE_INVALID_NAME_ERROR)
    if (address !== undefined && address !== null && (typeof address !== 'object' || typeof (address as { value?: unknown }).value !== 'string')) throw invalid('address: must be an object with a value')
    return { name: name as string | undefined, address: address as { value: string } | null | undefined, custom: customValues(body.custom_fields) }
  }

  function createOrganization(body: Record<string, unknown>): Reply {
    const input = organizationInput(body, true)
    const time = now()
    const organization: FakeOrganization = {
      id: nextId++,
      name: input.name!,
      owner_id: 1,
      add_time: time,
      update_time: time,
      is_deleted: false,
      visible_to: 3,
      label_ids: [],
      address: input.address ? { value: input.address.value } : null,
      custom_fields: input.custom,
    }
    organizations.set(organization.id, organization)
    return ok(organizationView(organization))
  }

  function updateOrganization(organization: FakeOrganization, body: Record<string, unknown>): Reply {
    const input = organizationInput(body, false)
    if (input.name !== undefined) organization.name = input.name
    if (input.address !== undefined) organization.address = input.address ? { value: input.address.value } : null
    Object.assign(organization.custom_fields, input.custom)
    organization.update_time = now()
    return ok(organizationView(organization))
  }

  function searchOrganizations(query: Record<string, string>): Reply {
    const { term, exact } = searchTerm(query)
    const where = searchFields(query, ['name', 'address', 'custom_fields', 'notes'])
    const searchable = customFields().filter((candidate) => SEARCHABLE_TYPES.has(candidate.field_type))
    const items = [...organizations.values()]
      .filter((organization) => !organization.is_deleted)
      .filter(
        (organization) =>
          (where.has('name') && matches(organization.name, term, exact)) ||
          (where.has('address') && matches(organization.address?.value, term, exact)) ||
          (where.has('custom_fields') && searchable.some((candidate) => matches(organization.custom_fields[candidate.field_code], term, exact))),
      )
      .slice(0, Number(query.limit ?? 100))
      .map((organization) => ({
        result_score: 1,
        item: {
          id: organization.id,
          type: 'organization',
          name: organization.name,
          address: organization.address?.value ?? null,
          visible_to: organization.visible_to,
          owner: { id: organization.owner_id },
          custom_fields: searchable.map((candidate) => organization.custom_fields[candidate.field_code]).filter((value): value is string => Boolean(value)),
          notes: [],
        },
      }))
    return ok({ items }, { next_cursor: null })
  }

  function personInput(body: Record<string, unknown>) {
    const { name, emails, org_id: orgId } = body
    if (typeof name !== 'string' || !name.trim()) throw invalid('name: is required')
    if (emails !== undefined && (!Array.isArray(emails) || emails.some((email) => typeof email?.value !== 'string'))) throw invalid('emails: must be an array of { value, primary, label }')
    if (orgId !== undefined && orgId !== null && (typeof orgId !== 'number' || !organizations.has(orgId))) throw invalid('org_id: organization not found')
    const list = ((emails ?? []) as { value: string; primary?: boolean; label?: string }[]).map((email) => ({ value: email.value, primary: email.primary === true, label: email.label ?? 'work' }))
    return { name, emails: list, orgId: (orgId as number | null | undefined) ?? null }
  }

  function createPerson(body: Record<string, unknown>): Reply {
    const input = personInput(body)
    const time = now()
    const person: FakePerson = { id: nextId++, name: input.name, owner_id: 1, org_id: input.orgId, add_time: time, update_time: time, is_deleted: false, visible_to: 3, emails: input.emails, phones: [] }
    persons.set(person.id, person)
    return ok(person)
  }

  function searchPersons(query: Record<string, string>): Reply {
    const { term, exact } = searchTerm(query)
    const where = searchFields(query, ['custom_fields', 'email', 'notes', 'phone', 'name'])
    const items = [...persons.values()]
      .filter((person) => !person.is_deleted)
      .filter((person) => (where.has('email') && person.emails.some((email) => matches(email.value, term, exact))) || (where.has('name') && matches(person.name, term, exact)))
      .slice(0, Number(query.limit ?? 100))
      .map((person) => {
        const organization = person.org_id ? organizations.get(person.org_id) : undefined
        const item = {
          id: person.id,
          type: 'person',
          name: person.name,
          phones: person.phones.map((phone) => phone.value),
          emails: person.emails.map((email) => email.value),
          visible_to: person.visible_to,
          owner: { id: person.owner_id },
          organization: organization ? { id: organization.id, name: organization.name } : null,
          custom_fields: [],
          notes: [],
        }
        return { result_score: 1, item }
      })
    return ok({ items }, { next_cursor: null })
  }

  function createLead(body: Record<string, unknown>): Reply {
    const { title, organization_id: organizationId, person_id: personId } = body
    if (typeof title !== 'string' || !title.trim()) return failure(400, 'Validation failed: title: is required')
    if (organizationId === undefined && personId === undefined) return failure(400, 'Validation failed: Either person_id or organization_id is required')
    if (organizationId !== undefined && (typeof organizationId !== 'number' || !organizations.has(organizationId))) return failure(404, 'Organization not found')
    const lead: FakeLead = { id: randomUUID(), title, owner_id: 1, person_id: (personId as number | undefined) ?? null, organization_id: (organizationId as number | undefined) ?? null, origin: 'API', is_archived: false, add_time: now() }
    leads.set(lead.id, lead)
    return ok(lead, null, 201)
  }

  function listFields(query: Record<string, string>): Reply {
    const all = [...fields.values()]
    const start = query.cursor ? Number(Buffer.from(query.cursor, 'base64url').toString()) : 0
    const limit = Math.min(Number(query.limit ?? 100), 500)
    const next = start + limit < all.length ? Buffer.from(String(start + limit)).toString('base64url') : null
    return ok(all.slice(start, start + limit), { next_cursor: next })
  }

  function createField(body: Record<string, unknown>): Reply {
    const { field_name: name, field_type: type } = body
    if (typeof name !== 'string' || !name.trim()) throw invalid('field_name: is required')
    if (typeof type !== 'string' || !FIELD_TYPES.has(type)) throw invalid('field_type: must be one of the field types')
    const created = field(randomBytes(20).toString('hex'), name, type, true)
    fields.set(created.field_code, created)
    return ok(created)
  }

  function route(method: string, path: string, query: Record<string, string>, body: Record<string, unknown>): Reply {
    const organizationPath = /^\/api\/v2\/organizations\/(\d+)$/.exec(path)
    if (organizationPath) {
      const organization = organizations.get(Number(organizationPath[1]))
      if (!organization || organization.is_deleted) return failure(404, 'Organization not found')
      if (method === 'GET') return ok(organizationView(organization))
      if (method === 'PATCH') return updateOrganization(organization, body)
    }
    const routes: Record<string, () => Reply> = {
      'GET /api/v1/users/me': () => ok({ id: 1, name: 'Fake User', email: 'owner@fake-company.test', company_id: 4242, company_name: 'Fake Company', company_domain: 'fakecompany', is_you: true }),
      'GET /api/v2/organizationFields': () => listFields(query),
      'POST /api/v2/organizationFields': () => createField(body),
      'GET /api/v2/organizations/search': () => searchOrganizations(query),
      'POST /api/v2/organizations': () => createOrganization(body),
      'GET /api/v2/persons/search': () => searchPersons(query),
      'POST /api/v2/persons': () => createPerson(body),
      'POST /api/v1/leads': () => createLead(body),
    }
    const handler = routes[`${method} ${path}`]
    return handler ? handler() : failure(404, `Unknown method ${method} ${path}`)
  }

  return { organizations, persons, leads, fields, route }
}

function searchTerm(query: Record<string, string>): { term: string; exact: boolean } {
  const exact = query.exact_match === 'true'
  const term = query.term ?? ''
  if (term.length < (exact ? 1 : 2)) throw invalid('term: must be at least 2 characters long (1 with exact_match)')
  return { term, exact }
}

function searchFields(query: Record<string, string>, allowed: string[]): Set<string> {
  const asked = query.fields ? query.fields.split(',').map((name) => name.trim()) : allowed
  for (const name of asked) if (!allowed.includes(name)) throw invalid(`fields: must be a comma-separated list of ${allowed.join(', ')}`)
  return new Set(asked)
}

const injectedBody = (status: number) => ({ success: false, error: `Injected HTTP ${status}`, error_info: ERROR_INFO, data: null })

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

function send(response: http.ServerResponse, reply: Reply, extra: Record<string, string> = {}): void {
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body)
  response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...extra, ...reply.headers })
  response.end(text)
}

/** The account's rolling 2-second window: the requests it let through, and how long until one more may pass. */
function burstWindow(limit: number) {
  const arrivals: number[] = []
  return {
    take(at: number): { waitMs: number; remaining: number } {
      while (arrivals.length && arrivals[0]! <= at - 2_000) arrivals.shift()
      if (arrivals.length >= limit) return { waitMs: arrivals[0]! + 2_000 - at, remaining: 0 }
      arrivals.push(at)
      return { waitMs: 0, remaining: limit - arrivals.length }
    },
  }
}

/** On a free port of 127.0.0.1. `token` (default FAKE_PIPEDRIVE_TOKEN) is the only one accepted; `burstPer2s` default 10,000 (no throttling). */
export async function startFakePipedrive(options: { token?: string; burstPer2s?: number } = {}): Promise<FakePipedrive> {
  const token = options.token ?? FAKE_PIPEDRIVE_TOKEN
  const burst = options.burstPer2s ?? 10_000
  const account = createAccount()
  const window = burstWindow(burst)
  const injected: Reply[] = []
  const targeted: { route: string; reply: Reply }[] = []
  const calls: FakeCall[] = []
  let requests = 0
  let throttled = 0

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    requests++
    const url = new URL(request.url ?? '/', 'http://fake')
    const method = request.method ?? 'GET'
    const query = Object.fromEntries(url.searchParams)
    const raw = await readBody(request)
    calls.push({ method, path: url.pathname, query })
    const next = injected.shift()
    if (next) return send(response, next)
    const aimed = targeted.findIndex((entry) => entry.route === `${method} ${url.pathname}`)
    if (aimed >= 0) return send(response, targeted.splice(aimed, 1)[0]!.reply)
    // An API token in its header, or an OAuth access token as a bearer (Pipedrive takes both).
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (request.headers['x-api-token'] !== token && bearer !== token) return send(response, { status: 401, body: { success: false, error: 'unauthorized access', errorCode: 401, error_info: ERROR_INFO } })
    const turn = window.take(Date.now())
    const limits = { 'x-ratelimit-limit': String(burst), 'x-ratelimit-remaining': String(turn.remaining), 'x-ratelimit-reset': '2' }
    if (turn.waitMs > 0) {
      throttled++
      const seconds = String(Math.max(1, Math.ceil(turn.waitMs / 1000)))
      return send(response, { status: 429, body: { success: false, error: 'Request over limit', errorCode: 429, error_info: ERROR_INFO } }, { ...limits, 'retry-after': seconds, 'x-ratelimit-reset': seconds })
    }
    let body: Record<string, unknown> = {}
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        return send(response, failure(400, 'Validation failed: body: invalid JSON'), limits)
      }
    }
    try {
      send(response, account.route(method, url.pathname, query, body), limits)
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      send(response, failure(error.status, error.message), limits)
    }
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, failure(500, `Fake Pipedrive failed: ${String(error)}`)))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    organizations: account.organizations,
    persons: account.persons,
    leads: account.leads,
    fields: account.fields,
    get requests() {
      return requests
    },
    get throttled() {
      return throttled
    },
    calls,
    failNext(status, body, headers) {
      injected.push({ status, body: body ?? injectedBody(status), ...(headers ? { headers } : {}) })
    },
    failOn(method, path, status, body) {
      targeted.push({ route: `${method} ${path}`, reply: { status, body: body ?? injectedBody(status) } })
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}
