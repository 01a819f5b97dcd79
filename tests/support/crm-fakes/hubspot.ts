/**
 * A HubSpot on loopback for the CRM push tests, the e2e run and the bench (node:http only, no test framework): the
 * 2026-03 CRM endpoints the adapter (app/.server/integrations/providers/hubspot.ts) calls, answering with HubSpot's
 * documented shapes and statuses. Its rules:
 * - every request needs `Authorization: Bearer <token>`, else 401 with HubSpot's INVALID_AUTHENTICATION body;
 * - more than `limitPer10s` requests in a rolling 10 s: 429, Retry-After (seconds) and HubSpot's RATE_LIMIT body;
 * - `failNext(status, body, headers, path?)` answers the next request (to `path`) so: a 5xx, a 429 with its own
 *   Retry-After, a 400 for a whole batch;
 * - a property value containing `INVALID` (or a text given to `rejectProperty`), an unknown property or a second
 *   company with the same `leadatlas_key` is refused: per input in a 207 when every input carries an
 *   objectWriteTraceId (HubSpot's multi-status opt-in), else the whole batch in a 400, nothing written;
 * - custom company properties answer 404 until created, and 409 when created twice;
 * - a batch naming the same id twice, or of more than 100 inputs, is a 400.
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

interface FakeObject {
  id: string
  properties: Record<string, string>
  createdAt: string
  updatedAt: string
}

interface PropertyDefinition {
  name: string
  label: string
  groupName: string
  type: string
  fieldType: string
  hasUniqueValue: boolean
}

export interface FakeHubspot {
  url: string
  portalId: number
  companies: Map<string, FakeObject>
  contacts: Map<string, FakeObject>
  /** `contactId:companyId`, each default association once. */
  associations: Set<string>
  /** The company properties created through the API (HubSpot's own ones always exist). */
  properties: Map<string, PropertyDefinition>
  /** Every request answered, in order. */
  log: { method: string; path: string; status: number }[]
  readonly requests: number
  /** The next request (to `path` when given) answers so, once. */
  failNext(status: number, body?: unknown, headers?: Record<string, string>, path?: string): void
  /** Any property value containing `text` is refused from now on (besides `INVALID`). */
  rejectProperty(text: string): void
  /** The contact (made if missing) unsubscribed from all email now, as its link in an email would. */
  optOut(email: string): FakeObject
  close(): Promise<void>
}

type Json = Record<string, any>
interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}
type Injected = Answer & { path?: string }

const STANDARD: Record<'companies' | 'contacts', string[]> = {
  companies: ['name', 'address', 'city', 'zip', 'country', 'phone', 'website', 'domain', 'linkedin_company_page', 'facebook_company_page', 'twitterhandle', 'description'],
  contacts: ['email', 'company', 'firstname', 'lastname', 'phone', 'hs_email_optout'],
}
const DATES = new Set(['createdate', 'lastmodifieddate', 'hs_lastmodifieddate'])
const OBJECT_NAMES = { companies: 'COMPANY', contacts: 'CONTACT' }

const error = (status: number, message: string, category: string, extra: Json = {}): Answer => ({
  status,
  body: { status: 'error', message, correlationId: randomUUID(), category, ...extra },
})

const invalid = (name: string, message: string, code: string) =>
  `Property values were not valid: ${JSON.stringify([{ isValid: false, message, error: code, name, localizedErrorMessage: message }])}`

function dateMs(value: unknown): number {
  const text = String(value ?? '')
  return /^\d+$/.test(text) ? Number(text) : Date.parse(text)
}

class Store {
  readonly objects = new Map<string, FakeObject>()
  private nextId: number
  constructor(
    readonly type: 'companies' | 'contacts',
    firstId: number,
    private readonly custom: Map<string, PropertyDefinition>,
    private readonly rejected: string[],
  ) {
    this.nextId = firstId
  }

  known(name: string): boolean {
    return STANDARD[this.type].includes(name) || this.custom.has(name) || DATES.has(name) || name === 'hs_object_id'
  }

  unique(name: string): boolean {
    return name === 'hs_object_id' || (this.type === 'contacts' ? name === 'email' : this.custom.get(name)?.hasUniqueValue === true)
  }

  find(id: string, idProperty = 'hs_object_id'): FakeObject | undefined {
    if (idProperty === 'hs_object_id') return this.objects.get(id)
    const wanted = idProperty === 'email' ? id.toLowerCase() : id
    return [...this.objects.values()].find((object) => object.properties[idProperty] === wanted)
  }

  /** Why HubSpot would refuse writing `properties` on `target` (undefined: a new object), or null. */
  refusal(properties: Json, target: FakeObject | undefined): string | null {
    for (const [name, value] of Object.entries(properties)) {
      if (!this.known(name)) return invalid(name, `Property "${name}" does not exist`, 'PROPERTY_DOESNT_EXIST')
      const text = String(value)
      if (this.rejected.some((bad) => text.includes(bad))) return invalid(name, `${JSON.stringify(text)} is not a valid value for ${name}`, 'INVALID_VALUE')
      const holder = this.unique(name) && name !== 'hs_object_id' ? this.find(text, name) : undefined
      if (holder && holder !== target) return invalid(name, `${OBJECT_NAMES[this.type]} ${holder.id} already has the unique value ${JSON.stringify(text)} for ${name}`, 'INVALID_UNIQUE_VALUE')
    }
    return null
  }

  write(target: FakeObject | undefined, properties: Json): FakeObject {
    const now = new Date().toISOString()
    const object = target ?? { id: String(this.nextId++), properties: {}, createdAt: now, updatedAt: now }
    for (const [name, value] of Object.entries(properties)) object.properties[name] = name === 'email' ? String(value).toLowerCase() : String(value)
    object.updatedAt = now
    object.properties.hs_object_id = object.id
    object.properties.createdate = object.createdAt
    object.properties[this.type === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate'] = now
    this.objects.set(object.id, object)
    return object
  }
}

function shown(object: FakeObject, properties?: string[], extra: Json = {}): Json {
  const names = properties ? [...new Set([...properties, 'hs_object_id', 'createdate', 'hs_lastmodifieddate', 'lastmodifieddate'])] : Object.keys(object.properties)
  const values = Object.fromEntries(names.filter((name) => properties || object.properties[name] !== undefined).map((name) => [name, object.properties[name] ?? null]))
  return { id: object.id, properties: values, createdAt: object.createdAt, updatedAt: object.updatedAt, archived: false, ...extra }
}

function batchAnswer(results: Json[], errors: Json[]): Answer {
  const now = new Date().toISOString()
  const body = { status: 'COMPLETE', results, startedAt: now, completedAt: now, ...(errors.length ? { numErrors: errors.length, errors } : {}) }
  return { status: errors.length ? 207 : 200, body }
}

function batchInputs(body: Json, idsMustDiffer: boolean): Json[] | Answer {
  const inputs: Json[] = Array.isArray(body.inputs) ? body.inputs : []
  if (inputs.length > 100) return error(400, `Too many inputs: ${inputs.length}, at most 100 per batch`, 'VALIDATION_ERROR')
  const ids = inputs.map((input) => String(input.id))
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index)
  if (idsMustDiffer && twice.length) return error(400, `Duplicate IDs found in batch input: [${[...new Set(twice)].join(', ')}]. IDs must be unique`, 'VALIDATION_ERROR')
  return inputs
}

function batchRead(store: Store, body: Json): Answer {
  const inputs = batchInputs(body, false)
  if (!Array.isArray(inputs)) return inputs
  const idProperty = body.idProperty ?? 'hs_object_id'
  if (!store.unique(idProperty)) return error(400, `${idProperty} is not a unique identifier property for ${OBJECT_NAMES[store.type]}`, 'VALIDATION_ERROR')
  const found = inputs.map((input) => [String(input.id), store.find(String(input.id), idProperty)] as const)
  const missing = found.filter(([, object]) => !object).map(([id]) => id)
  const results = [...new Set(found.flatMap(([, object]) => (object ? [object] : [])))].map((object) => shown(object, body.properties ?? []))
  const message = `Could not get some ${OBJECT_NAMES[store.type]} objects, they may be deleted or not exist. Check that ids are valid.`
  return batchAnswer(results, missing.length ? [{ status: 'error', category: 'OBJECT_NOT_FOUND', message, context: { ids: missing } }] : [])
}

/** batch/create, batch/update and batch/upsert: every input checked first, then all written or, in a 400, none. */
function batchWrite(store: Store, body: Json, mode: 'create' | 'update' | 'upsert'): Answer {
  const inputs = batchInputs(body, mode !== 'create')
  if (!Array.isArray(inputs)) return inputs
  const checked = inputs.map((input) => {
    const idProperty = mode === 'upsert' ? String(input.idProperty ?? body.idProperty ?? 'hs_object_id') : 'hs_object_id'
    if (mode === 'upsert' && !store.unique(idProperty)) return { input, refusal: `${idProperty} is not a unique property`, category: 'VALIDATION_ERROR' }
    const target = mode === 'create' ? undefined : store.find(String(input.id), idProperty)
    if (mode === 'update' && !target) return { input, refusal: `Object ${input.id} does not exist`, category: 'OBJECT_NOT_FOUND' }
    const properties = { ...(mode === 'upsert' && !target && idProperty !== 'hs_object_id' ? { [idProperty]: input.id } : {}), ...(input.properties ?? {}) }
    return { input, target, properties, refusal: store.refusal(properties, target), category: 'VALIDATION_ERROR' }
  })
  const refused = checked.filter((entry) => entry.refusal)
  if (refused.length && !inputs.every((input) => input.objectWriteTraceId)) return error(400, refused[0]!.refusal!, refused[0]!.category)
  const results = checked
    .filter((entry) => !entry.refusal)
    .map(({ input, target, properties }) => {
      const object = store.write(target, properties ?? {})
      return shown(object, undefined, { ...(mode === 'upsert' ? { new: !target } : {}), ...(input.objectWriteTraceId ? { objectWriteTraceId: input.objectWriteTraceId } : {}) })
    })
  const errors = refused.map(({ input, refusal, category }) => ({ status: 'error', category, message: refusal, context: { objectWriteTraceId: [input.objectWriteTraceId], ids: [String(input.id)] } }))
  return batchAnswer(results, errors)
}

function order<T extends string | number>(left: T, right: T): number {
  return left < right ? -1 : left > right ? 1 : 0
}

function matches(object: FakeObject, filter: Json): boolean {
  const value = object.properties[filter.propertyName]
  if (filter.operator === 'HAS_PROPERTY') return value !== undefined && value !== ''
  if (filter.operator === 'NOT_HAS_PROPERTY') return value === undefined || value === ''
  if (value === undefined) return false
  const compare = DATES.has(filter.propertyName) ? order(dateMs(value), dateMs(filter.value)) : order(value.toLowerCase(), String(filter.value).toLowerCase())
  const operators: Record<string, boolean> = { EQ: compare === 0, NEQ: compare !== 0, GT: compare > 0, GTE: compare >= 0, LT: compare < 0, LTE: compare <= 0 }
  return operators[filter.operator] ?? false
}

function search(store: Store, body: Json): Answer {
  const limit = Number(body.limit ?? 10)
  const offset = Number(body.after ?? 0)
  if (limit > 200) return error(400, 'limit must be at most 200', 'VALIDATION_ERROR')
  if (offset + limit > 10_000) return error(400, 'The paging offset plus limit cannot exceed 10000', 'VALIDATION_ERROR')
  const groups: Json[] = body.filterGroups ?? []
  let found = [...store.objects.values()].filter((object) => !groups.length || groups.some((group) => (group.filters ?? []).every((filter: Json) => matches(object, filter))))
  const sort = body.sorts?.[0]
  const sortName: string | undefined = typeof sort === 'string' ? sort : sort?.propertyName
  if (sortName) {
    const direction = typeof sort === 'object' && sort.direction === 'DESCENDING' ? -1 : 1
    const compare = (a: FakeObject, b: FakeObject) =>
      DATES.has(sortName) ? order(dateMs(a.properties[sortName]), dateMs(b.properties[sortName])) : order(a.properties[sortName] ?? '', b.properties[sortName] ?? '')
    found = found.sort((a, b) => direction * compare(a, b))
  }
  const defaults = store.type === 'contacts' ? ['createdate', 'email', 'firstname', 'lastname'] : ['createdate', 'domain', 'name']
  const results = found.slice(offset, offset + limit).map((object) => shown(object, [...defaults, ...(body.properties ?? [])]))
  const next = offset + limit < found.length ? { paging: { next: { after: String(offset + limit) } } } : {}
  return { status: 200, body: { total: found.length, results, ...next } }
}

function associate(fake: Pick<FakeHubspot, 'associations'>, companies: Store, contacts: Store, body: Json): Answer {
  const results: Json[] = []
  const errors: Json[] = []
  for (const input of body.inputs ?? []) {
    const [from, to] = [String(input.from?.id), String(input.to?.id)]
    if (!contacts.objects.has(from) || !companies.objects.has(to)) {
      errors.push({ status: 'error', category: 'VALIDATION_ERROR', message: `No object found for association ${from} -> ${to}`, context: { fromObjectId: [from], toObjectId: [to] } })
      continue
    }
    fake.associations.add(`${from}:${to}`)
    results.push({ from: { id: from }, to: { id: to }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 } })
  }
  return batchAnswer(results, errors)
}

function propertyRoutes(method: string, name: string | undefined, body: Json, store: Store, custom: Map<string, PropertyDefinition>): Answer {
  if (method === 'GET' && name) {
    const definition = custom.get(name) ?? (store.known(name) ? { name, label: name, groupName: 'companyinformation', type: 'string', fieldType: 'text', hasUniqueValue: false, hubspotDefined: true } : undefined)
    return definition ? { status: 200, body: definition } : error(404, `Unable to find property ${name} for object type 0-2`, 'OBJECT_NOT_FOUND')
  }
  if (method !== 'POST' || name) return error(405, 'Method not allowed', 'VALIDATION_ERROR')
  if (typeof body.name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.name) || !body.label || !body.type || !body.fieldType || !body.groupName) {
    return error(400, 'Property definition is missing name, label, type, fieldType or groupName', 'VALIDATION_ERROR')
  }
  if (store.known(body.name)) return error(409, `Property named '${body.name}' already exists.`, 'OBJECT_ALREADY_EXISTS')
  const definition: PropertyDefinition = {
    name: body.name,
    label: body.label,
    groupName: body.groupName,
    type: body.type,
    fieldType: body.fieldType,
    hasUniqueValue: body.hasUniqueValue === true,
  }
  custom.set(body.name, definition)
  return { status: 201, body: { ...definition, hubspotDefined: false, createdAt: new Date().toISOString() } }
}

function route(method: string, path: string, body: Json, fake: FakeHubspot, stores: { companies: Store; contacts: Store }): Answer {
  if (method === 'GET' && /^\/account-info\/(v3|2026-03)\/details$/.test(path)) {
    return { status: 200, body: { portalId: fake.portalId, accountType: 'STANDARD', timeZone: 'Europe/Paris', companyCurrency: 'EUR', additionalCurrencies: [], utcOffset: '+01:00', utcOffsetMilliseconds: 3_600_000, uiDomain: 'app-eu1.hubspot.com', dataHostingLocation: 'eu1' } }
  }
  const property = /^\/crm\/properties\/2026-03\/companies(?:\/([^/]+))?$/.exec(path)
  if (property) return propertyRoutes(method, property[1], body, stores.companies, fake.properties)
  if (method === 'POST' && path === '/crm/associations/2026-03/contacts/companies/batch/associate/default') return associate(fake, stores.companies, stores.contacts, body)
  const objects = /^\/crm\/objects\/2026-03\/(companies|contacts)\/(batch\/read|batch\/create|batch\/update|batch\/upsert|search)$/.exec(path)
  if (method !== 'POST' || !objects) return error(404, `No endpoint for ${method} ${path}`, 'OBJECT_NOT_FOUND')
  const store = stores[objects[1] as 'companies' | 'contacts']
  if (objects[2] === 'batch/read') return batchRead(store, body)
  if (objects[2] === 'search') return search(store, body)
  return batchWrite(store, body, objects[2]!.slice('batch/'.length) as 'create' | 'update' | 'upsert')
}

function parse(text: string): Json | undefined {
  if (!text) return {}
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Json) : undefined
  } catch {
    return undefined
  }
}

/** On a free port of 127.0.0.1. `token` default `pat-eu1-fake-token`; `limitPer10s` default 100 (HubSpot's private-app burst). */
export async function startFakeHubspot(options: { token?: string; limitPer10s?: number } = {}): Promise<FakeHubspot> {
  const token = options.token ?? 'pat-eu1-fake-token'
  const limit = options.limitPer10s ?? 100
  const queued: Injected[] = []
  const rejected = ['INVALID']
  const accepted: number[] = []
  let requests = 0
  const properties = new Map<string, PropertyDefinition>()
  const stores = { companies: new Store('companies', 30_000_000_001, properties, rejected), contacts: new Store('contacts', 70_000_000_001, new Map(), rejected) }

  const rateLimited = (): Answer | null => {
    const now = Date.now()
    while (accepted.length && accepted[0]! <= now - 10_000) accepted.shift()
    if (accepted.length < limit) {
      accepted.push(now)
      return null
    }
    const retryAfter = Math.max(1, Math.ceil((accepted[0]! + 10_000 - now) / 1000))
    const body = { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: randomUUID(), policyName: 'TEN_SECONDLY_ROLLING', requestId: randomUUID() }
    return { status: 429, body, headers: { 'retry-after': String(retryAfter) } }
  }

  const answer = (method: string, path: string, headers: http.IncomingHttpHeaders, text: string): Answer => {
    const injected = queued.findIndex((entry) => !entry.path || entry.path === path)
    if (injected >= 0) return queued.splice(injected, 1)[0]!
    const limited = rateLimited()
    if (limited) return limited
    if (headers.authorization !== `Bearer ${token}`) {
      const message = 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview'
      return error(401, message, 'INVALID_AUTHENTICATION')
    }
    const body = parse(text)
    if (!body) return error(400, 'Invalid input JSON on line 1, column 1', 'VALIDATION_ERROR')
    return route(method, path, body, fake, stores)
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests++
      const method = request.method ?? 'GET'
      const path = (request.url ?? '/').split('?')[0]!
      const result = answer(method, path, request.headers, Buffer.concat(chunks).toString('utf8'))
      fake.log.push({ method, path, status: result.status })
      const payload = result.body === undefined ? '' : JSON.stringify(result.body)
      response.writeHead(result.status, { ...(payload ? { 'content-type': 'application/json;charset=utf-8' } : {}), ...result.headers })
      response.end(payload)
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })

  const fake: FakeHubspot = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    portalId: 146_000_001,
    companies: stores.companies.objects,
    contacts: stores.contacts.objects,
    associations: new Set(),
    properties,
    log: [],
    get requests() {
      return requests
    },
    failNext(status, body, headers, path) {
      const fallback = { status: 'error', message: `Injected HTTP ${status}`, correlationId: randomUUID(), category: status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR' }
      queued.push({ status, body: body ?? fallback, headers, path })
    },
    rejectProperty(text) {
      rejected.push(text)
    },
    optOut(email) {
      return stores.contacts.write(stores.contacts.find(email, 'email'), { email, hs_email_optout: 'true' })
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve, reject) => server.close((closeError) => (closeError ? reject(closeError) : resolve())))
    },
  }
  return fake
}
