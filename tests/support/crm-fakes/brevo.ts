/**
 * A local Brevo (v3 API) for the CRM push tests, the e2e suite and the bench: the endpoints the adapter calls, with
 * the statuses and bodies developers.brevo.com/reference documents. `{ code, message }` errors; 201 `{ id }` or 204
 * on POST /v3/contacts; 202 `{ processId }` imports that complete a moment later behind GET /v3/processes/{id};
 * attributes that must exist before a contact carries them (unknown ones are ignored, as the import documents); and
 * the per-second limit answered as Brevo does: 429 with x-sib-ratelimit-* headers and no Retry-After.
 * node:http only (no test framework), on 127.0.0.1, a free port.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

interface FakeBrevoContact {
  id: number
  email: string
  attributes: Record<string, string | number | boolean>
  listIds: number[]
  emailBlacklisted: boolean
  smsBlacklisted: boolean
  createdAt: string
  modifiedAt: string
}

interface FakeBrevoAttribute {
  name: string
  category: string
  type: string
}

interface FakeBrevoImport {
  processId: number
  body: any
  status: 'queued' | 'completed' | 'failed'
}

interface FakeBrevoRequest {
  method: string
  path: string
  query: URLSearchParams
  body: any
  headers: http.IncomingHttpHeaders
  /** The status it was answered with. */
  status?: number
}

export interface FakeBrevo {
  url: string
  /** By email (lowercase). Tests edit them to play a salesperson typing in Brevo. */
  contacts: Map<string, FakeBrevoContact>
  attributes: Map<string, FakeBrevoAttribute>
  /** Contact lists by id. */
  lists: Map<number, string>
  imports: FakeBrevoImport[]
  requests: FakeBrevoRequest[]
  /** The next request (any endpoint) is answered with this instead. */
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void
  /** The next import's process ends `failed` and imports nothing. */
  failNextImport(): void
  /** The contact unsubscribes from emails (emailBlacklisted, modifiedAt now). */
  blacklist(email: string): void
  /** Requests accepted per rolling second from now on (undefined: no limit). */
  limit(perSecond: number | undefined): void
  close(): Promise<void>
}

export interface FakeBrevoOptions {
  apiKey?: string
  /** Requests accepted per rolling second (default: no limit). */
  limitPerSecond?: number
  /** How long an import stays queued (default 30 ms). */
  importDelayMs?: number
  companyName?: string
}

interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

const DEFAULT_KEY = 'xkeysib-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef-FakeBrevoKey0001'
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const error = (status: number, code: string, message: string): Answer => ({ status, body: { code, message } })

class State {
  contacts = new Map<string, FakeBrevoContact>()
  attributes = new Map<string, FakeBrevoAttribute>(['FIRSTNAME', 'LASTNAME', 'SMS'].map((name) => [name, { name, category: 'normal', type: 'text' }]))
  lists = new Map<number, string>([[2, 'LeadAtlas leads']])
  imports: FakeBrevoImport[] = []
  nextId = 1
  nextProcess = 101
  failImport = false
  lastStamp = 0

  constructor(readonly options: Required<Pick<FakeBrevoOptions, 'importDelayMs' | 'companyName'>>) {}

  /** Strictly increasing times: a cursor on modifiedAt never misses a change made in the same millisecond. */
  stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1)
    return new Date(this.lastStamp).toISOString()
  }

  /** Known attributes only (Brevo ignores the others); false when SMS is not a phone number. */
  applyAttributes(contact: FakeBrevoContact, attributes: Record<string, unknown> | undefined, keepOnEmpty: boolean): boolean {
    for (const [rawName, value] of Object.entries(attributes ?? {})) {
      const name = rawName.toUpperCase()
      if (!this.attributes.has(name)) continue
      if (name === 'SMS' && !/^\+?\d{8,15}$/.test(String(value))) return false
      if (keepOnEmpty && (value === '' || value === null)) continue
      contact.attributes[name] = value as string
    }
    return true
  }

  upsert(email: string, attributes: Record<string, unknown> | undefined, listIds: unknown, keepOnEmpty: boolean): { created: boolean; ok: boolean; id: number } {
    const existing = this.contacts.get(email)
    const now = this.stamp()
    const contact = existing ? { ...existing, attributes: { ...existing.attributes } } : { id: this.nextId, email, attributes: {}, listIds: [], emailBlacklisted: false, smsBlacklisted: false, createdAt: now, modifiedAt: now }
    if (!this.applyAttributes(contact, attributes, keepOnEmpty)) return { created: false, ok: false, id: 0 }
    if (!existing) this.nextId++
    for (const id of Array.isArray(listIds) ? listIds : []) if (!contact.listIds.includes(Number(id))) contact.listIds.push(Number(id))
    contact.modifiedAt = now
    this.contacts.set(email, contact)
    return { created: !existing, ok: true, id: contact.id }
  }
}

function createContact(state: State, body: any): Answer {
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
  if (!EMAIL.test(email)) return error(400, 'invalid_parameter', 'Invalid email address')
  for (const id of Array.isArray(body.listIds) ? body.listIds : []) if (!state.lists.has(Number(id))) return error(404, 'document_not_found', 'List ID does not exist')
  if (state.contacts.has(email) && body.updateEnabled !== true) return error(400, 'duplicate_parameter', 'Contact already exist')
  const result = state.upsert(email, body.attributes, body.listIds, false)
  if (!result.ok) return error(400, 'invalid_parameter', 'Invalid phone number')
  return result.created ? { status: 201, body: { id: result.id } } : { status: 204 }
}

function importContacts(state: State, body: any): Answer {
  if (!Array.isArray(body?.jsonBody) && typeof body?.fileBody !== 'string' && typeof body?.fileUrl !== 'string') {
    return error(400, 'missing_parameter', 'fileUrl, fileBody or jsonBody is mandatory')
  }
  const job: FakeBrevoImport = { processId: state.nextProcess++, body, status: 'queued' }
  const failing = state.failImport
  state.failImport = false
  state.imports.push(job)
  setTimeout(() => {
    if (failing) return void (job.status = 'failed')
    for (const row of Array.isArray(body.jsonBody) ? body.jsonBody : []) {
      const email = typeof row?.email === 'string' ? row.email.trim().toLowerCase() : ''
      // Brevo skips invalid rows and reports them in a CSV behind the process's info.import URLs.
      if (!EMAIL.test(email) || (state.contacts.has(email) && body.updateExistingContacts === false)) continue
      state.upsert(email, row.attributes, body.listIds, body.emptyContactsAttributes !== true)
    }
    job.status = 'completed'
  }, state.options.importDelayMs).unref()
  return { status: 202, body: { processId: job.processId } }
}

function listContacts(state: State, query: URLSearchParams): Answer {
  const limit = Number(query.get('limit') ?? 50)
  const offset = Number(query.get('offset') ?? 0)
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000) return error(400, 'out_of_range', 'Limit exceeds max value')
  const since = query.get('modifiedSince')
  const sinceTime = since ? Date.parse(since) : Number.NEGATIVE_INFINITY
  if (Number.isNaN(sinceTime)) return error(400, 'invalid_parameter', 'modifiedSince is not a valid date-time')
  const sorted = [...state.contacts.values()].sort((a, b) => a.id - b.id)
  if (query.get('sort') !== 'asc') sorted.reverse()
  const matching = sorted.filter((contact) => Date.parse(contact.modifiedAt) > sinceTime)
  return { status: 200, body: { contacts: matching.slice(offset, offset + limit), count: matching.length } }
}

function createAttribute(state: State, category: string, name: string, body: any): Answer {
  if (!['normal', 'transactional', 'category', 'calculated', 'global'].includes(category)) return error(400, 'invalid_parameter', 'Invalid attribute category')
  if (!/^[A-Z0-9_]{1,50}$/i.test(name)) return error(400, 'invalid_parameter', 'Invalid attribute name')
  if (state.attributes.has(name.toUpperCase())) return error(400, 'invalid_parameter', 'Attribute name must be unique')
  state.attributes.set(name.toUpperCase(), { name: name.toUpperCase(), category, type: typeof body?.type === 'string' ? body.type : 'text' })
  return { status: 201 }
}

function getProcess(state: State, id: number): Answer {
  const job = state.imports.find((candidate) => candidate.processId === id)
  if (!job) return error(404, 'document_not_found', 'Process does not exist')
  return { status: 200, body: { id, name: 'IMPORTUSER', status: job.status, ...(job.status === 'completed' ? { info: { import: {} } } : {}) } }
}

function route(state: State, method: string, path: string, query: URLSearchParams, body: any): Answer {
  let match: RegExpMatchArray | null
  if (method === 'GET' && path === '/v3/account') {
    return { status: 200, body: { email: 'owner@example.com', firstName: 'Camille', lastName: 'Martin', companyName: state.options.companyName, plan: [{ type: 'free' }] } }
  }
  if (method === 'GET' && path === '/v3/contacts/attributes') return { status: 200, body: { attributes: [...state.attributes.values()] } }
  if (method === 'POST' && (match = path.match(/^\/v3\/contacts\/attributes\/([^/]+)\/([^/]+)$/))) return createAttribute(state, match[1]!, decodeURIComponent(match[2]!), body)
  if (method === 'GET' && (match = path.match(/^\/v3\/contacts\/lists\/(\d+)$/))) {
    const name = state.lists.get(Number(match[1]))
    return name ? { status: 200, body: { id: Number(match[1]), name, folderId: 1, uniqueSubscribers: 0 } } : error(404, 'document_not_found', 'List ID does not exist')
  }
  if (method === 'POST' && path === '/v3/contacts/import') return importContacts(state, body)
  if (method === 'POST' && path === '/v3/contacts') return createContact(state, body)
  if (method === 'GET' && path === '/v3/contacts') return listContacts(state, query)
  if (method === 'GET' && (match = path.match(/^\/v3\/contacts\/([^/]+)$/))) {
    const identifier = decodeURIComponent(match[1]!).toLowerCase()
    const contact = /^\d+$/.test(identifier) ? [...state.contacts.values()].find((candidate) => candidate.id === Number(identifier)) : state.contacts.get(identifier)
    if (!contact && !/^\d+$/.test(identifier) && !EMAIL.test(identifier)) return error(400, 'invalid_parameter', 'Invalid email address')
    return contact ? { status: 200, body: { ...contact, statistics: {} } } : error(404, 'document_not_found', 'Contact does not exist')
  }
  if (method === 'GET' && (match = path.match(/^\/v3\/processes\/(\d+)$/))) return getProcess(state, Number(match[1]))
  return error(404, 'not_found', `No route ${method} ${path}`)
}

function readBody(request: http.IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      try {
        resolve(text ? JSON.parse(text) : undefined)
      } catch {
        resolve(Symbol.for('invalid-json'))
      }
    })
  })
}

function send(response: http.ServerResponse, answer: Answer): void {
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body)
  response.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...answer.headers })
  response.end(text)
}

export async function startFakeBrevo(options: FakeBrevoOptions = {}): Promise<FakeBrevo> {
  const apiKey = options.apiKey ?? DEFAULT_KEY
  const state = new State({ importDelayMs: options.importDelayMs ?? 30, companyName: options.companyName ?? 'Atelier Martin' })
  const requests: FakeBrevoRequest[] = []
  const accepted: number[] = []
  let limitPerSecond = options.limitPerSecond
  const failures: Answer[] = []
  const answer = (request: http.IncomingMessage, url: URL, body: any): Answer => {
    const failure = failures.shift()
    if (failure) return failure
    const now = Date.now()
    while (accepted.length && accepted[0]! <= now - 1000) accepted.shift()
    if (limitPerSecond !== undefined && accepted.length >= limitPerSecond) {
      const headers = { 'x-sib-ratelimit-limit': String(limitPerSecond), 'x-sib-ratelimit-remaining': '0', 'x-sib-ratelimit-reset': '1' }
      return { ...error(429, 'too_many_requests', 'The expected rate limit is exceeded.'), headers }
    }
    accepted.push(now)
    if (request.headers['api-key'] !== apiKey) return error(401, 'unauthorized', 'Key not found')
    if (body === Symbol.for('invalid-json')) return error(400, 'bad_request', 'Malformed JSON body')
    return route(state, request.method ?? 'GET', url.pathname, url.searchParams, body)
  }
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const body = await readBody(request)
    const logged: FakeBrevoRequest = { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, body, headers: request.headers }
    requests.push(logged)
    const result = answer(request, url, body)
    logged.status = result.status
    send(response, result)
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    contacts: state.contacts,
    attributes: state.attributes,
    lists: state.lists,
    imports: state.imports,
    requests,
    failNext: (status, body, headers) => void failures.push({ status, body, headers }),
    failNextImport: () => void (state.failImport = true),
    blacklist(email) {
      const contact = state.contacts.get(email.toLowerCase())
      if (!contact) throw new Error(`no contact ${email}`)
      state.contacts.set(contact.email, { ...contact, emailBlacklisted: true, modifiedAt: state.stamp() })
    },
    limit: (perSecond) => void (limitPerSecond = perSecond),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
