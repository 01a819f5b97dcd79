// Issue 28 item 11: one id format per object everywhere, and values that never follow Accept-Language. The OpenAPI
// document is walked for every `id` / `*_id` field (responses, request bodies, path parameters, webhook payloads), and
// so are real answers of a real server and database: every id of an object type must be declared alike everywhere,
// answered in that format, and name an object the API itself answers (its own GET or list). Then every GET (and the
// preview) is sent twice, in English and in French, and must answer the same bytes.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { API_OPERATIONS } from '#app/.server/api-v1/operations/index.ts'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { startWebhookDelivery, type WebhookDelivery } from '#app/.server/webhooks/delivery.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'
import { startFakeHubspot, type FakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'
import { runCrmPush } from '#app/.server/integrations/push-run.ts'

let admin: pg.Pool
let receiver: WebhookReceiver
let boss: PgBoss
let delivery: WebhookDelivery
let hubspot: FakeHubspot
beforeAll(async () => {
  hubspot = await startFakeHubspot({ token: 'pat-eu1-ids-test' })
  process.env.HUBSPOT_API_URL = hubspot.url
  process.env.INTEGRATIONS_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64')
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.WEBHOOK_QUEUE = `webhook-ids-${randomUUID().slice(0, 8)}`
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  receiver = await startWebhookReceiver()
  process.env.WEBHOOK_ALLOW_HOSTS = receiver.host
  boss = createBoss({ worker: true, max: 3 })
  await boss.start()
  delivery = await startWebhookDelivery(boss, { log: () => {} })
})
afterAll(async () => {
  await delivery.stop()
  await hubspot.close()
  await boss.stop({ graceful: false }).catch(() => {})
  await receiver.close()
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }

// ---------------------------------------------------------------------------------------------------------------
// Which object an id field names.

/** The object a component's own `id` is the id of. A component with an `id` missing here fails the test. */
const COMPONENT_OBJECTS: Record<string, string> = {
  Export: 'export',
  ExportOutput: 'export',
  CreatedExport: 'export',
  Lead: 'lead',
  SavedSearch: 'saved_search',
  WebhookEndpoint: 'webhook_endpoint',
  CreatedWebhookEndpoint: 'webhook_endpoint',
  RotatedWebhookSecret: 'webhook_endpoint',
  WebhookDelivery: 'webhook_delivery',
  DoNotContactEntry: 'do_not_contact_entry',
  CreditEntry: 'credit_entry',
  Category: 'category',
  Workspace: 'workspace',
  CrmConnection: 'crm_connection',
  CrmPush: 'crm_push',
  // A preview result's business, should it be named `id` again (it was `"osm:node/1"`, where its lead says `source_id`).
  PreviewResult: 'business',
}

/** `<name>_id` fields: the object they name. One missing here fails the test. */
const REFERENCE_OBJECTS: Record<string, string> = {
  export_id: 'export',
  saved_search_id: 'saved_search',
  endpoint_id: 'webhook_endpoint',
  delivery_id: 'webhook_delivery',
  user_id: 'user',
  member_id: 'user',
  message_id: 'webhook_message',
  source_id: 'business',
  connection_id: 'crm_connection',
  lead_id: 'lead',
  // A CRM's own id of a record, and a Google spreadsheet's: their formats are the CRM's.
  remote_id: 'crm_record',
  spreadsheet_id: 'spreadsheet',
}

/** The object a path's `{id}` names, by its collection. */
const PATH_OBJECTS: Record<string, string> = {
  exports: 'export',
  'saved-searches': 'saved_search',
  'webhook-endpoints': 'webhook_endpoint',
  'webhook-deliveries': 'webhook_delivery',
  'do-not-contact': 'do_not_contact_entry',
  'crm-connections': 'crm_connection',
  'crm-pushes': 'crm_push',
}

/** Ids whose format is their source's own (an OSM element, a Google place id): no pattern can be declared. */
const FREE_FORM = new Set(['business', 'crm_record', 'spreadsheet'])

/** Registry numbers: the ids of a company and of an establishment (leads, registry previews). */
const REGISTRY_IDS: Record<string, string> = { siren: 'company', siret: 'establishment' }

const isIdField = (name: string) => name === 'id' || name.endsWith('_id') || name in REGISTRY_IDS

function objectOf(component: string | undefined, field: string): string {
  const object = field === 'id' ? (component ? COMPONENT_OBJECTS[component] : undefined) : (REFERENCE_OBJECTS[field] ?? REGISTRY_IDS[field])
  if (!object) throw new Error(`the id field ${component ?? '(inline object)'}.${field} names no known object: add it to the maps of this test`)
  return object
}

// ---------------------------------------------------------------------------------------------------------------
// The document.

type Schema = {
  $ref?: string
  type?: string | string[]
  format?: string
  pattern?: string
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  items?: Schema
  properties?: Record<string, Schema>
  additionalProperties?: Schema | boolean
}
type Operation = { parameters?: Array<{ in: string; name: string; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }
type Document = { paths: Record<string, Record<string, Operation>>; webhooks: Record<string, { post: Operation }>; components: { schemas: Record<string, Schema> } }

const document = () => structuredClone(openApiDocument()) as unknown as Document

function component(ref: string, doc: Document): [string, Schema] {
  const name = ref.split('/').at(-1)!
  return [name, doc.components.schemas[name]!]
}

/** The schema without its `null` branch (a nullable id is declared as `anyOf [id, null]`). */
function nonNull(schema: Schema, doc: Document): Schema {
  if (schema.$ref) return nonNull(component(schema.$ref, doc)[1], doc)
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) {
    const kept = branches.filter((branch) => branch.type !== 'null')
    return kept.length === 1 ? nonNull(kept[0]!, doc) : schema
  }
  if (Array.isArray(schema.type)) return { ...schema, type: schema.type.filter((type) => type !== 'null').join(',') }
  return schema
}

/** What must be the same for every declaration of an object's id. */
function idFormat(schema: Schema, doc: Document) {
  const { type, format, pattern } = nonNull(schema, doc)
  return JSON.stringify({ type, format: format ?? null, pattern: pattern ?? null })
}

interface Declaration {
  object: string
  where: string
  schema: Schema
}

/** Every id field a schema declares, with the nearest named component as the object a bare `id` belongs to. */
function declaredIds(schema: Schema, where: string, doc: Document, out: Declaration[], owner?: string, seen = new Set<string>()) {
  if (schema.$ref) {
    const [name, target] = component(schema.$ref, doc)
    if (seen.has(name)) return
    declaredIds(target, `${where}<${name}>`, doc, out, name, new Set([...seen, name]))
    return
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) declaredIds(branch, where, doc, out, owner, seen)
  if (schema.items) declaredIds(schema.items, `${where}[]`, doc, out, undefined, seen)
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (isIdField(name)) out.push({ object: objectOf(owner, name), where: `${where}.${name}`, schema: property })
    // An inline object inside a component is not that component: its own `id` would have to be mapped.
    declaredIds(property, `${where}.${name}`, doc, out, undefined, seen)
  }
}

function allDeclarations(doc: Document): Declaration[] {
  const out: Declaration[] = []
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') continue
        const collection = path.replace('/api/v1/', '').split('/')[0]!
        const object = PATH_OBJECTS[collection]
        if (!object) throw new Error(`${name}: the path parameter {${parameter.name}} names no known object`)
        out.push({ object, where: `${name} {${parameter.name}}`, schema: parameter.schema })
      }
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) declaredIds(content.schema, `${name} body ${type}`, doc, out)
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) continue
        for (const content of Object.values(response.content ?? {})) declaredIds(content.schema, `${name} ${status}`, doc, out)
      }
    }
  }
  for (const [event, webhook] of Object.entries(doc.webhooks)) {
    for (const content of Object.values(webhook.post.requestBody?.content ?? {})) declaredIds(content.schema, `webhook ${event}`, doc, out)
  }
  return out
}

/** The test a value of the object must pass, from its declaration (format uuid, or a pattern). */
function checkerOf(schema: Schema, doc: Document): (value: unknown) => boolean {
  const { format, pattern } = nonNull(schema, doc)
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
  return (value) => typeof value === 'string' && (format !== 'uuid' || uuid.test(value)) && (!pattern || new RegExp(pattern, 'u').test(value))
}

// ---------------------------------------------------------------------------------------------------------------
// Real answers.

interface Occurrence {
  object: string
  value: unknown
  where: string
  /** An object's own id (its `id`), or a reference to another object (`export_id`…). */
  own: boolean
  schema: Schema
}

/** Every id in a real body, read along the schema that documents it. */
function idsIn(schema: Schema, value: unknown, where: string, doc: Document, out: Occurrence[], owner?: string) {
  if (value === null || value === undefined) return
  if (schema.$ref) {
    const [name, target] = component(schema.$ref, doc)
    idsIn(target, value, where, doc, out, name)
    return
  }
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) {
    for (const branch of branches.filter((candidate) => candidate.type !== 'null')) idsIn(branch, value, where, doc, out, owner)
    return
  }
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, index) => idsIn(schema.items!, item, `${where}[${index}]`, doc, out))
    return
  }
  if (typeof value !== 'object') return
  const record = value as Record<string, unknown>
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!(name in record)) continue
    if (isIdField(name) && record[name] !== null) out.push({ object: objectOf(owner, name), value: record[name], where: `${where}.${name}`, own: name === 'id', schema: property })
    idsIn(property, record[name], `${where}.${name}`, doc, out)
  }
}

const occurrences: Occurrence[] = []
const locations: Array<{ where: string; location: string; body: unknown }> = []

/** A request to the API; its JSON answer's ids are recorded along the documented schema of its status. */
async function call(key: string, method: string, path: string, { body, headers = {}, query = '' }: { body?: unknown; headers?: Record<string, string>; query?: string } = {}) {
  const response = await appFetch(`${API_ORIGIN}/api/v1${path}${query}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.clone().text()
  const type = response.headers.get('Content-Type') ?? ''
  if (response.status < 400 && type.startsWith('application/json')) {
    const doc = document()
    const template = Object.keys(doc.paths).find((candidate) => new RegExp(`^${candidate.replace(/\{\w+\}/g, '[^/]+')}$`).test(`/api/v1${path}`))!
    const schema = doc.paths[template]![method.toLowerCase()]!.responses[String(response.status)]!.content!['application/json']!.schema
    const parsed: unknown = JSON.parse(text)
    idsIn(schema, parsed, `${method} ${template} ${response.status}`, doc, occurrences)
    const location = response.headers.get('Location')
    if (location) locations.push({ where: `${method} ${template} ${response.status}`, location, body: parsed })
  }
  return { response, text, json: (): Record<string, unknown> => JSON.parse(text) as Record<string, unknown> }
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const enrichers = () => createDefaultEnrichers(parseEnv(process.env))

// ---------------------------------------------------------------------------------------------------------------

describe('one id format per object', () => {
  test('the document declares every id of an object alike, with its format, everywhere it appears', () => {
    const doc = document()
    const declarations = allDeclarations(doc)
    const byObject = new Map<string, Declaration[]>()
    for (const declaration of declarations) byObject.set(declaration.object, [...(byObject.get(declaration.object) ?? []), declaration])
    // Every object the API answers is found, so a walk that finds nothing cannot pass.
    expect([...byObject.keys()].sort()).toEqual(expect.arrayContaining(['category', 'company', 'credit_entry', 'do_not_contact_entry', 'establishment', 'export', 'lead', 'saved_search', 'user', 'webhook_delivery', 'webhook_endpoint']))
    const problems: string[] = []
    for (const [object, found] of byObject) {
      const formats = new Map<string, string[]>()
      for (const declaration of found) formats.set(idFormat(declaration.schema, doc), [...(formats.get(idFormat(declaration.schema, doc)) ?? []), declaration.where])
      if (formats.size > 1) problems.push(`${object}: ${[...formats].map(([format, where]) => `${format} at ${where.join(', ')}`).join(' ≠ ')}`)
      for (const declaration of found) {
        const { type, format, pattern } = nonNull(declaration.schema, doc)
        if (type !== 'string') problems.push(`${declaration.where}: an id is a string (${String(type)})`)
        if (!FREE_FORM.has(object) && !format && !pattern) problems.push(`${declaration.where}: no format or pattern declared`)
      }
    }
    expect(problems).toEqual([])
  })

  test('real answers and webhook payloads carry each id in its declared format, and every reference names an object the API answers', { timeout: 120_000 }, async () => {
    const doc = document()
    const { user, key } = await createApiUser(admin, 500)
    const hookPath = `/ids-${randomUUID()}`
    const endpoint = await call(key, 'POST', '/webhook-endpoints', { body: { url: receiver.url(hookPath), events: ['export.completed', 'saved_search.run_completed'] } })
    expect(endpoint.response.status, endpoint.text).toBe(201)
    const endpointId = endpoint.json().id as string
    // The same URL again: the existing endpoint, with its Location.
    expect((await call(key, 'POST', '/webhook-endpoints', { body: { url: receiver.url(hookPath), events: ['export.completed'] } })).response.status).toBe(200)

    const preview = await call(key, 'POST', '/previews', { body: { criteria: BREST, enrichments: ['phone'] } })
    expect(preview.response.status, preview.text).toBe(200)
    const created = await call(key, 'POST', '/exports', { body: { name: 'Bakeries – Brest', criteria: BREST, enrichments: ['phone'], max_leads: 5 }, headers: { 'Idempotency-Key': randomUUID() } })
    expect(created.response.status, created.text).toBe(202)
    const exportId = created.json().id as string
    await processExport(exportId, { enrichers: enrichers() })
    await receiver.waitFor(hookPath, 1, 20_000)

    // A saved search named by a category label: it is kept as the category's id, the format GET /categories gives.
    const saved = await call(key, 'POST', '/saved-searches', { body: { name: 'Brest weekly', criteria: { ...BREST, sector: 'Boulangerie' }, enrichments: ['phone'], max_leads: 2 } })
    expect(saved.response.status, saved.text).toBe(201)
    const savedId = saved.json().id as string
    const run = await call(key, 'POST', `/saved-searches/${savedId}/runs`)
    expect(run.response.status, run.text).toBe(202)
    const runId = run.json().id as string
    await processExport(runId, { enrichers: enrichers() })
    await receiver.waitFor(hookPath, 3, 20_000)

    await call(key, 'POST', '/do-not-contact', { body: { entries: ['contact@example.fr'] } })
    const deliveries = await until(
      () => call(key, 'GET', `/webhook-endpoints/${endpointId}/deliveries`),
      (answer) => (answer.json().data as Array<{ state: string }>).every((entry) => entry.state === 'succeeded'),
    )
    const firstDelivery = (deliveries.json().data as Array<{ id: string }>)[0]!.id
    expect((await call(key, 'POST', `/webhook-deliveries/${firstDelivery}/redeliver`)).response.status).toBe(202)
    expect((await call(key, 'POST', `/webhook-endpoints/${endpointId}/test`)).response.status).toBe(202)
    expect((await call(key, 'POST', `/webhook-endpoints/${endpointId}/rotate-secret`, { body: { overlap_seconds: 0 } })).response.status).toBe(200)

    // Every list and read, after the writes.
    for (const path of ['/me', '/exports', `/exports/${exportId}`, `/exports/${runId}`, `/exports/${exportId}/leads`, '/credits/history', '/saved-searches', `/saved-searches/${savedId}`, '/do-not-contact', '/webhook-endpoints', `/webhook-endpoints/${endpointId}`, `/webhook-endpoints/${endpointId}/deliveries`]) {
      expect((await call(key, 'GET', path)).response.status, path).toBe(200)
    }
    const categories = await call(key, 'GET', '/categories', { query: '?lang=fr&q=boulangerie' })

    // The webhook payloads, read along the document's `webhooks` schema.
    for (const received of receiver.received.filter((entry) => entry.path === hookPath)) {
      const event = JSON.parse(received.body) as { type: string }
      idsIn(doc.webhooks[event.type]!.post.requestBody!.content['application/json']!.schema, event, `webhook ${event.type}`, doc, occurrences)
    }

    const declared = new Map(allDeclarations(doc).map((declaration) => [declaration.object, declaration.schema]))
    const problems: string[] = []
    for (const occurrence of occurrences) {
      if (!checkerOf(occurrence.schema, doc)(occurrence.value)) problems.push(`${occurrence.where}: ${JSON.stringify(occurrence.value)} is not in the declared format`)
      if (!checkerOf(declared.get(occurrence.object)!, doc)(occurrence.value)) problems.push(`${occurrence.where}: ${JSON.stringify(occurrence.value)} is not a ${occurrence.object} id`)
    }
    // References name objects the API answered itself (the test made them all, so none is gone).
    const own = (object: string) => new Set(occurrences.filter((occurrence) => occurrence.object === object && occurrence.own).map((occurrence) => occurrence.value))
    for (const object of ['export', 'saved_search', 'webhook_endpoint', 'webhook_delivery']) {
      for (const reference of occurrences.filter((occurrence) => occurrence.object === object && !occurrence.own)) {
        if (!own(object).has(reference.value)) problems.push(`${reference.where}: ${JSON.stringify(reference.value)} is no ${object} the API answers`)
      }
    }
    // Location headers: the path of the object the body is, in the same id format.
    for (const { where, location, body } of locations) {
      const [, collection, id] = /^\/api\/v1\/([\w-]+)\/([^/]+)$/.exec(location) ?? []
      const object = collection ? PATH_OBJECTS[collection] : undefined
      if (!object || !own(object).has(id) || (body as { id?: string }).id !== id) problems.push(`${where}: Location ${location} is not the answered object's path`)
    }
    for (const answer of ['POST /api/v1/webhook-endpoints 201', 'POST /api/v1/webhook-endpoints 200', 'POST /api/v1/exports 202', 'POST /api/v1/saved-searches 201', 'POST /api/v1/saved-searches/{id}/runs 202']) {
      if (!locations.some((entry) => entry.where === answer)) problems.push(`${answer}: no Location header`)
    }

    // The same business is one id: a preview's first results are the export's leads, by source and source id.
    const business = (entry: Record<string, unknown>) => `${String(entry.source)}|${String(entry.source_id)}`
    const previewed = (preview.json().results as Array<Record<string, unknown>>).slice(0, 5).map(business).sort()
    const leads = ((await call(key, 'GET', `/exports/${exportId}/leads`)).json().data as Array<Record<string, unknown>>).map(business).sort()
    if (JSON.stringify(previewed) !== JSON.stringify(leads)) problems.push(`a preview's businesses ${previewed.join(', ')} are not named as its export's leads ${leads.join(', ')}`)
    // The category of a saved search is the id GET /categories gives it.
    const bakery = (categories.json().data as Array<{ id: string; label: string }>).find((category) => category.label === 'Boulangerie')!
    const sector = (saved.json().criteria as { sector: string }).sector
    if (sector !== bakery.id) problems.push(`a saved search's category is ${JSON.stringify(sector)}, not its id ${JSON.stringify(bakery.id)}`)
    expect(problems).toEqual([])
    // Each object of the user was seen with its own id (the walk found them).
    for (const [object, id] of [['export', exportId], ['export', runId], ['saved_search', savedId], ['webhook_endpoint', endpointId], ['webhook_delivery', firstDelivery]] as const) expect(own(object).has(id), `${object} ${id}`).toBe(true)
    expect(occurrences.some((occurrence) => occurrence.object === 'user' && occurrence.value === user.id)).toBe(true)
  })
})

describe('values never follow Accept-Language', () => {
  const languages = ['en', 'fr-FR,fr;q=0.9'] as const

  test('every GET, and a preview, answers the same bytes in English and in French (with the same ?lang)', { timeout: 120_000 }, async () => {
    const { key } = await createApiUser(admin, 200)
    const exportId = (await call(key, 'POST', '/exports', { body: { name: 'Brest', criteria: BREST, enrichments: ['phone', 'admin_fr_info'], max_leads: 3 } })).json().id as string
    await processExport(exportId, { enrichers: enrichers() })
    const savedId = (await call(key, 'POST', '/saved-searches', { body: { name: 'Brest', criteria: BREST, enrichments: ['phone'] } })).json().id as string
    const endpointId = (await call(key, 'POST', '/webhook-endpoints', { body: { url: receiver.url(`/lang-${randomUUID()}`), events: ['export.completed'] } })).json().id as string
    await call(key, 'POST', '/do-not-contact', { body: { entries: ['@competitor.fr'] } })
    const connectionId = (await call(key, 'POST', '/crm-connections', { body: { provider: 'hubspot', label: 'Sales', secret: 'pat-eu1-ids-test' } })).json().id as string
    const pushId = (await call(key, 'POST', `/exports/${exportId}/crm-pushes`, { body: { connection_id: connectionId } })).json().id as string
    await runCrmPush(pushId)

    const ids: Record<string, string> = { exports: exportId, 'saved-searches': savedId, 'webhook-endpoints': endpointId, 'crm-connections': connectionId, 'crm-pushes': pushId }
    const queries: Record<string, string> = {
      '/categories': 'q=boul',
      '/locations': 'type=region&country=France',
      '/naf-codes': 'q=boulangerie',
      '/exports/{id}/file': 'format=csv',
    }
    const gets = API_OPERATIONS.filter((operation) => operation.method === 'get')
    expect(gets.length).toBeGreaterThanOrEqual(14)
    const differing: string[] = []
    for (const operation of [...gets, ...API_OPERATIONS.filter((candidate) => candidate.id === 'createPreview')]) {
      const path = operation.path.replace('{id}', ids[operation.path.split('/')[1]!] ?? 'missing')
      expect(path, `${operation.id}: give this test an object for its path`).not.toContain('missing')
      const shape = operation.query && 'shape' in operation.query ? (operation.query.shape as Record<string, unknown>) : {}
      const query = [queries[operation.path], 'lang' in shape ? 'lang=fr' : ''].filter(Boolean).join('&')
      const body = operation.id === 'createPreview' ? { criteria: BREST, enrichments: ['phone'] } : undefined
      const answers = await Promise.all(languages.map((language) => call(key, operation.method.toUpperCase(), path, { query: query ? `?${query}` : '', body, headers: { 'Accept-Language': language } })))
      for (const answer of answers) expect(answer.response.status, `${operation.id} ${answer.text.slice(0, 300)}`).toBe(200)
      const [en, fr] = answers
      if (en!.text !== fr!.text || en!.response.headers.get('Content-Disposition') !== fr!.response.headers.get('Content-Disposition')) differing.push(operation.id)
    }
    expect(differing).toEqual([])
  })

  test('what a command stores does not follow it either: exports made in English and in French hold the same leads', { timeout: 120_000 }, async () => {
    const leadsOf = async (language: string) => {
      const { key } = await createApiUser(admin, 100)
      const created = await call(key, 'POST', '/exports', { body: { name: 'Brest', criteria: BREST, enrichments: ['phone'], max_leads: 3 }, headers: { 'Accept-Language': language } })
      expect(created.response.status, created.text).toBe(202)
      const id = created.json().id as string
      await processExport(id, { enrichers: enrichers() })
      const leads = (await call(key, 'GET', `/exports/${id}/leads`)).json().data as Array<{ name: string; business_types: string[]; working_hours: string | null }>
      expect(leads).toHaveLength(3)
      return leads.map(({ name, business_types, working_hours }) => ({ name, business_types, working_hours }))
    }
    const [en, fr] = await Promise.all(languages.map(leadsOf))
    expect(fr).toEqual(en)
  })

  test('a saved search keeps the language it was given by ?lang, whatever header saves or changes it', async () => {
    const { key } = await createApiUser(admin)
    const langOf = async (answer: Promise<{ json: () => Record<string, unknown> }>) => (await answer).json().lang
    const made = await Promise.all(languages.map((language) => call(key, 'POST', '/saved-searches', { body: { name: `Brest ${language}`, criteria: BREST, enrichments: ['phone'] }, headers: { 'Accept-Language': language } })))
    expect(made.map((answer) => answer.json().lang)).toEqual(['en', 'en'])
    const id = made[0]!.json().id as string
    expect(await langOf(call(key, 'PATCH', `/saved-searches/${id}`, { body: { name: 'Renamed' }, headers: { 'Accept-Language': 'fr' } }))).toBe('en')
    expect(await langOf(call(key, 'PATCH', `/saved-searches/${id}`, { body: {}, query: '?lang=fr' }))).toBe('fr')
    expect(await langOf(call(key, 'PATCH', `/saved-searches/${id}`, { body: { name: 'Renamed again' }, headers: { 'Accept-Language': 'en' } }))).toBe('fr')
  })
})
