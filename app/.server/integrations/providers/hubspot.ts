/**
 * HubSpot (issue 30), through the date-versioned CRM API (2026-03: the v3 object and v4 association shapes under
 * dated paths). A company is upserted by our unique `leadatlas_key` property (the CrmRecord key it was created
 * under), found again by any of a record's aliases or by the id an earlier push stored; its emails become contacts
 * (upserted by email) associated with it; opt-outs are read back from a contact search.
 */
import { changesAnything, CRM_FIELDS, valuesToWrite, type CrmField, type CrmMapping, type CrmRecord, type CrmRowResult, type CrmValues } from '#app/domain/crm.ts'
import { CrmAuthError, crmErrorMessage, CrmUnavailableError, type CrmHttp, type CrmRequest, type CrmResponse } from '../crm-http.ts'
import type { ConnectionSettings, CrmProviderModule, OptOutPage } from './types.ts'

const COMPANIES = '/crm/objects/2026-03/companies'
const CONTACTS = '/crm/objects/2026-03/contacts'
const COMPANY_PROPERTIES = '/crm/properties/2026-03/companies'
const ASSOCIATE = '/crm/associations/2026-03/contacts/companies/batch/associate/default'
const KEY = 'leadatlas_key'
/** HubSpot's batch read, create, update and upsert endpoints take at most 100 inputs. */
const BATCH = 100

/** Where each field lives on a HubSpot company: its own property where HubSpot has one, else ours. */
const PROPERTY: Record<CrmField, string> = {
  name: 'name',
  address: 'address',
  city: 'city',
  postal_code: 'zip',
  country_code: 'country',
  phone: 'phone',
  website: 'website',
  domain: 'domain',
  siren: 'leadatlas_siren',
  siret: 'leadatlas_siret',
  naf_code: 'leadatlas_naf_code',
  headcount: 'leadatlas_headcount',
  rating: 'leadatlas_rating',
  linkedin: 'linkedin_company_page',
  facebook: 'facebook_company_page',
  twitter: 'twitterhandle',
  instagram: 'leadatlas_instagram',
  tiktok: 'leadatlas_tiktok',
  technologies: 'leadatlas_technologies',
  provenance: 'leadatlas_provenance',
  leadatlas_id: 'leadatlas_id',
}

/** The company properties prepare() creates, with the label a HubSpot user sees. */
const CUSTOM_PROPERTIES: Record<string, string> = {
  [KEY]: 'LeadAtlas key',
  leadatlas_id: 'LeadAtlas ID',
  leadatlas_siren: 'SIREN',
  leadatlas_siret: 'SIRET',
  leadatlas_naf_code: 'NAF code',
  leadatlas_headcount: 'Headcount (INSEE band)',
  leadatlas_rating: 'Rating',
  leadatlas_technologies: 'Technologies',
  leadatlas_provenance: 'LeadAtlas provenance',
  leadatlas_instagram: 'Instagram',
  leadatlas_tiktok: 'TikTok',
}

const READ_PROPERTIES = [...new Set([...Object.values(PROPERTY), KEY])]

interface HubspotObject {
  id: string
  properties: Record<string, string | null | undefined>
  objectWriteTraceId?: string
  new?: boolean
}

interface BatchError {
  message?: string
  context?: Record<string, unknown>
}

interface BatchBody {
  results?: HubspotObject[]
  errors?: BatchError[]
}

/** HubSpot refused a whole batch (a 400 on a read): every row of it fails with HubSpot's words. */
class BatchRefused extends Error {}

/** A write input: `trace` names it in HubSpot's answer (objectWriteTraceId), `ref` is what HubSpot echoes otherwise. */
interface WriteInput {
  trace: string
  ref: string
  payload: Record<string, unknown>
}

type WriteOutcome = { object: HubspotObject } | { error: string }

function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

/**
 * One call; 401 (a revoked or mistyped token) always throws CrmAuthError. A 403 is a missing scope: it throws too,
 * except where `scopeOptional` (the contacts calls: a token allowed only companies still pushes companies).
 */
async function call(http: CrmHttp, request: CrmRequest, scopeOptional = false): Promise<CrmResponse> {
  const response = await http.request(request)
  if (response.status === 401 || (response.status === 403 && !scopeOptional)) throw new CrmAuthError(crmErrorMessage(response))
  return response
}

const succeeded = (response: CrmResponse) => response.status === 200 || response.status === 201 || response.status === 207

/** The inputs a batch error names: by our trace ids, or by the ids sent (HubSpot's or the unique values). */
function errorTargets(error: BatchError): string[] {
  const context = error.context ?? {}
  return [context.objectWriteTraceId, context.ids].flatMap((targets) => (Array.isArray(targets) ? targets.map(String) : []))
}

/** Never a HubSpot id nor an email: an error naming either is not mistaken for another input's trace. */
const traceOf = (index: number) => `leadatlas-${index}`

/**
 * One batch write (create, update or upsert): per input trace, the object HubSpot wrote or its refusal. A 207 names
 * each refused input in its error's context; a 400 refuses them all.
 */
async function writeBatch(http: CrmHttp, path: string, inputs: WriteInput[], refOf: (object: HubspotObject) => string | null | undefined, scopeOptional = false): Promise<Map<string, WriteOutcome>> {
  const response = await call(http, { method: 'POST', path, body: { inputs: inputs.map((input) => ({ ...input.payload, objectWriteTraceId: input.trace })) } }, scopeOptional)
  const outcomes = new Map<string, WriteOutcome>()
  if (!succeeded(response)) {
    for (const input of inputs) outcomes.set(input.trace, { error: crmErrorMessage(response) })
    return outcomes
  }
  const traces = new Set(inputs.map((input) => input.trace))
  const byRef = new Map(inputs.map((input) => [input.ref, input.trace]))
  const body = (response.body ?? {}) as BatchBody
  for (const object of body.results ?? []) {
    const ref = refOf(object)
    const trace = object.objectWriteTraceId && traces.has(object.objectWriteTraceId) ? object.objectWriteTraceId : ref ? byRef.get(ref) : undefined
    if (trace) outcomes.set(trace, { object })
  }
  for (const error of body.errors ?? []) {
    for (const target of errorTargets(error)) {
      const trace = traces.has(target) ? target : byRef.get(target)
      if (trace) outcomes.set(trace, { error: (error.message ?? 'Refused by HubSpot').slice(0, 500) })
    }
  }
  for (const input of inputs) if (!outcomes.has(input.trace)) outcomes.set(input.trace, { error: 'HubSpot returned no result for this row' })
  return outcomes
}

/** Companies by HubSpot id, or by the values of a unique property; the ones that do not exist are left out (207). */
async function readCompanies(http: CrmHttp, ids: string[], idProperty?: string): Promise<HubspotObject[]> {
  const found: HubspotObject[] = []
  for (const part of chunks(ids)) {
    const body = { inputs: part.map((id) => ({ id })), properties: READ_PROPERTIES, ...(idProperty ? { idProperty } : {}) }
    const response = await call(http, { method: 'POST', path: `${COMPANIES}/batch/read`, body })
    if (!succeeded(response)) throw new BatchRefused(crmErrorMessage(response))
    found.push(...(((response.body ?? {}) as BatchBody).results ?? []))
  }
  return found
}

/**
 * Each record's company already in HubSpot: by the id an earlier push stored, else by the first of its aliases some
 * company was created under (a company made under `domain:x` is found by a later record keyed `siret:y`).
 */
async function findExisting(http: CrmHttp, records: readonly CrmRecord[]): Promise<(HubspotObject | undefined)[]> {
  const remoteIds = [...new Set(records.flatMap((record) => (record.remoteId ? [record.remoteId] : [])))]
  const byId = new Map((await readCompanies(http, remoteIds)).map((company) => [company.id, company]))
  const unresolved = records.filter((record) => !(record.remoteId && byId.has(record.remoteId)))
  const aliases = [...new Set(unresolved.flatMap((record) => [record.key, ...record.aliases]))]
  const byKey = new Map<string, HubspotObject>()
  for (const company of await readCompanies(http, aliases, KEY)) {
    const key = company.properties[KEY]
    if (key) byKey.set(key, company)
  }
  return records.map((record) => (record.remoteId ? byId.get(record.remoteId) : undefined) ?? [record.key, ...record.aliases].map((alias) => byKey.get(alias)).find(Boolean))
}

function valuesOf(company: HubspotObject): CrmValues {
  const values: CrmValues = {}
  for (const field of CRM_FIELDS) {
    const value = company.properties[PROPERTY[field]]
    if (typeof value === 'string' && value.trim()) values[field] = value
  }
  return values
}

function propertiesOf(values: CrmValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [PROPERTY[field as CrmField], value]))
}

/** HubSpot's twitterhandle holds a handle: a profile URL is reduced to it, before comparing with what HubSpot has. */
function inHubspotTerms(record: CrmRecord): CrmRecord {
  const handle = record.company.twitter?.match(/^https?:\/\/(?:www\.|mobile\.)?(?:twitter|x)\.com\/@?([A-Za-z0-9_]{1,15})\/?$/i)?.[1]
  return handle ? { ...record, company: { ...record.company, twitter: handle } } : record
}

interface Write {
  row: number
  record: CrmRecord
  existing: HubspotObject | undefined
  properties: Record<string, string>
}

interface Plan {
  results: CrmRowResult[]
  writes: Write[]
  /** Rows naming the same company as an earlier row of the batch: the row whose write they share. */
  duplicates: Map<number, number>
}

/**
 * What each row needs: nothing when HubSpot already has its values, else an update of the company found or an upsert
 * of a new one. Two rows of one batch naming the same company (one business listed twice) write it once: HubSpot
 * refuses a batch naming an id twice.
 */
function plan(records: readonly CrmRecord[], mapping: CrmMapping, found: (HubspotObject | undefined)[]): Plan {
  const results: CrmRowResult[] = records.map((record, row) => ({ leadId: record.leadId, outcome: 'failed', remoteId: found[row]?.id ?? null, reason: null }))
  const writes: Write[] = []
  const duplicates = new Map<number, number>()
  const writer = new Map<string, number>()
  records.forEach((original, row) => {
    const record = inHubspotTerms(original)
    const existing = found[row]
    const current = existing ? valuesOf(existing) : {}
    const values = valuesToWrite(record, mapping, current)
    if (existing && !changesAnything(values, current)) {
      results[row] = { ...results[row]!, outcome: 'skipped', reason: 'unchanged' }
      return
    }
    const names = existing ? [`id:${existing.id}`] : [record.key, ...record.aliases]
    const first = names.map((name) => writer.get(name)).find((index) => index !== undefined)
    if (first !== undefined) {
      duplicates.set(row, first)
      return
    }
    for (const name of names) writer.set(name, row)
    writes.push({ row, record, existing, properties: propertiesOf(values) })
  })
  return { results, writes, duplicates }
}

async function writeCompanies(http: CrmHttp, writes: Write[], results: CrmRowResult[]): Promise<void> {
  const updates = writes.filter((write) => write.existing)
  const creates = writes.filter((write) => !write.existing)
  for (const part of chunks(updates)) {
    const inputs = part.map((write) => ({ trace: traceOf(write.row), ref: write.existing!.id, payload: { id: write.existing!.id, properties: write.properties } }))
    const outcomes = await writeBatch(http, `${COMPANIES}/batch/update`, inputs, (company) => company.id)
    for (const write of part) settle(results, write, outcomes.get(traceOf(write.row))!, 'updated')
  }
  for (const part of chunks(creates)) {
    const inputs = part.map((write) => {
      const payload = { idProperty: KEY, id: write.record.key, properties: { ...write.properties, [KEY]: write.record.key } }
      return { trace: traceOf(write.row), ref: write.record.key, payload }
    })
    const outcomes = await writeBatch(http, `${COMPANIES}/batch/upsert`, inputs, (company) => company.properties[KEY])
    for (const write of part) settle(results, write, outcomes.get(traceOf(write.row))!, null)
  }
}

/** A write's row result; an upsert says whether it created the company (`new`), another push may have just made it. */
function settle(results: CrmRowResult[], write: Write, outcome: WriteOutcome, outcomeIfWritten: 'updated' | null): void {
  const base = results[write.row]!
  if ('error' in outcome) results[write.row] = { ...base, outcome: 'failed', reason: outcome.error }
  else results[write.row] = { ...base, outcome: outcomeIfWritten ?? (outcome.object.new ? 'created' : 'updated'), remoteId: String(outcome.object.id), reason: null }
}

/** A row sharing another's write shares its fate: skipped when that write went through, failed with it otherwise. */
function settleDuplicates(results: CrmRowResult[], duplicates: Map<number, number>): void {
  for (const [row, first] of duplicates) {
    const written = results[first]!
    results[row] = written.outcome === 'failed' ? { ...results[row]!, reason: written.reason } : { ...results[row]!, outcome: 'skipped', remoteId: written.remoteId, reason: 'duplicate' }
  }
}

/** Contact problems, by row: reported beside the company's outcome, which they never change. */
class ContactNotes {
  private readonly notes = new Map<number, Set<string>>()
  add(rows: Iterable<number>, message: string): void {
    for (const row of rows) this.notes.set(row, (this.notes.get(row) ?? new Set()).add(message))
  }
  applyTo(results: CrmRowResult[]): void {
    for (const [row, messages] of this.notes) {
      const reason = [results[row]!.reason, `contacts: ${[...messages].join('; ')}`].filter(Boolean).join('; ')
      results[row] = { ...results[row]!, reason: reason.slice(0, 1000) }
    }
  }
}

interface ContactRows {
  company: string | undefined
  rows: number[]
}

/** Every email of the rows whose company is in HubSpot, once (HubSpot refuses an id twice in a batch). */
function contactsOf(records: readonly CrmRecord[], results: CrmRowResult[]): Map<string, ContactRows> {
  const contacts = new Map<string, ContactRows>()
  records.forEach((record, row) => {
    if (results[row]!.outcome === 'failed' || !results[row]!.remoteId) return
    for (const { email } of record.contacts) {
      const entry = contacts.get(email) ?? { company: record.company.name, rows: [] }
      entry.rows.push(row)
      contacts.set(email, entry)
    }
  })
  return contacts
}

async function upsertContacts(http: CrmHttp, contacts: Map<string, ContactRows>, notes: ContactNotes): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  for (const part of chunks([...contacts])) {
    const inputs = part.map(([email, { company }], index) => ({
      trace: traceOf(index),
      ref: email,
      payload: { idProperty: 'email', id: email, properties: { email, ...(company ? { company } : {}) } },
    }))
    const outcomes = await writeBatch(http, `${CONTACTS}/batch/upsert`, inputs, (contact) => contact.properties.email?.toLowerCase(), true)
    part.forEach(([email, { rows }], index) => {
      const outcome = outcomes.get(traceOf(index))!
      if ('error' in outcome) notes.add(rows, outcome.error)
      else ids.set(email, String(outcome.object.id))
    })
  }
  return ids
}

/** Each contact with each of its companies (the default, unlabelled association: creating it twice is harmless). */
async function associate(http: CrmHttp, pairs: Map<string, { contactId: string; companyId: string; rows: number[] }>, notes: ContactNotes): Promise<void> {
  for (const part of chunks([...pairs.values()])) {
    const body = { inputs: part.map((pair) => ({ from: { id: pair.contactId }, to: { id: pair.companyId } })) }
    const response = await call(http, { method: 'POST', path: ASSOCIATE, body }, true)
    const answer = (succeeded(response) ? (response.body ?? {}) : {}) as { results?: { from?: { id?: unknown }; to?: { id?: unknown } }[]; errors?: BatchError[] }
    const done = new Set((answer.results ?? []).map((result) => `${String(result.from?.id)}:${String(result.to?.id)}`))
    const message = succeeded(response) ? (answer.errors?.[0]?.message ?? 'not associated') : crmErrorMessage(response)
    for (const pair of part) if (!done.has(`${pair.contactId}:${pair.companyId}`)) notes.add(pair.rows, `association: ${message}`)
  }
}

async function pushContacts(http: CrmHttp, records: readonly CrmRecord[], results: CrmRowResult[]): Promise<void> {
  const contacts = contactsOf(records, results)
  if (!contacts.size) return
  const notes = new ContactNotes()
  try {
    const ids = await upsertContacts(http, contacts, notes)
    const pairs = new Map<string, { contactId: string; companyId: string; rows: number[] }>()
    for (const [email, { rows }] of contacts) {
      const contactId = ids.get(email)
      if (!contactId) continue
      for (const row of rows) {
        const companyId = results[row]!.remoteId!
        const pair = pairs.get(`${contactId}:${companyId}`) ?? { contactId, companyId, rows: [] }
        pair.rows.push(row)
        pairs.set(`${contactId}:${companyId}`, pair)
      }
    }
    await associate(http, pairs, notes)
  } catch (error) {
    // The companies are written: an outage now is reported on the rows rather than redoing the batch.
    if (!(error instanceof CrmUnavailableError)) throw error
    notes.add(new Set([...contacts.values()].flatMap((entry) => entry.rows)), `HubSpot unavailable (${error.message})`)
  }
  notes.applyTo(results)
}

async function upsert(http: CrmHttp, records: readonly CrmRecord[], mapping: CrmMapping): Promise<CrmRowResult[]> {
  let found: (HubspotObject | undefined)[]
  try {
    found = await findExisting(http, records)
  } catch (error) {
    if (!(error instanceof BatchRefused)) throw error
    return records.map((row) => ({ leadId: row.leadId, outcome: 'failed', remoteId: row.remoteId, reason: error.message }))
  }
  const { results, writes, duplicates } = plan(records, mapping, found)
  await writeCompanies(http, writes, results)
  settleDuplicates(results, duplicates)
  await pushContacts(http, records, results)
  return results
}

/**
 * Creates our company property when missing; a 409 is another process having just created it. A refusal (a token
 * without the schema scope, a key property made by hand without unique values) is the admin's to fix, as refused
 * credentials are: CrmAuthError, so the connect form shows HubSpot's reason and a push marks the connection.
 */
async function ensureProperty(http: CrmHttp, name: string, label: string): Promise<void> {
  const existing = await call(http, { path: `${COMPANY_PROPERTIES}/${name}` })
  if (existing.status === 200) {
    // HubSpot cannot make an existing property unique: it must be deleted in HubSpot for prepare to create it.
    if (name === KEY && (existing.body as { hasUniqueValue?: unknown } | null)?.hasUniqueValue !== true) throw new CrmAuthError(`The HubSpot company property ${KEY} exists without unique values`)
    return
  }
  if (existing.status !== 404) throw new CrmAuthError(`HubSpot property ${name}: ${crmErrorMessage(existing)}`)
  const body = { name, label, groupName: 'companyinformation', type: 'string', fieldType: 'text', ...(name === KEY ? { hasUniqueValue: true } : {}) }
  const created = await call(http, { method: 'POST', path: COMPANY_PROPERTIES, body })
  if (!succeeded(created) && created.status !== 409) throw new CrmAuthError(`HubSpot property ${name}: ${crmErrorMessage(created)}`)
}

const SEARCH_LIMIT = 100

interface SearchPage {
  results?: HubspotObject[]
  paging?: { next?: { after?: string } }
}

async function searchOptOuts(http: CrmHttp, cursor: string | null, after?: string): Promise<SearchPage> {
  const since = cursor === null ? [] : [{ propertyName: 'lastmodifieddate', operator: 'GTE', value: String(Date.parse(cursor)) }]
  const body = {
    filterGroups: [{ filters: [{ propertyName: 'hs_email_optout', operator: 'EQ', value: 'true' }, ...since] }],
    sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
    properties: ['email', 'hs_email_optout', 'lastmodifieddate'],
    limit: SEARCH_LIMIT,
    ...(after ? { after } : {}),
  }
  const response = await call(http, { method: 'POST', path: `${CONTACTS}/search`, body })
  if (response.status !== 200) throw new Error(`HubSpot contact search: ${crmErrorMessage(response)}`)
  return (response.body ?? {}) as SearchPage
}

const modifiedMs = (contact: HubspotObject) => Date.parse(contact.properties.lastmodifieddate ?? '')

function addEmails(emails: Set<string>, contacts: HubspotObject[]): void {
  for (const contact of contacts) {
    const email = contact.properties.email?.trim().toLowerCase()
    if (email) emails.add(email)
  }
}

/**
 * One page of the contacts unsubscribed from all email, oldest change first: the newest change read is where the next
 * page starts (read again: GTE, so nothing else changed in that millisecond is missed). A full page changed in the
 * cursor's own millisecond (a bulk unsubscribe) would be read forever: the rest of that millisecond is walked with
 * `after` (which HubSpot's search stops at 10,000 results), then the cursor steps past it.
 */
async function optOuts(http: CrmHttp, cursor: string | null): Promise<OptOutPage> {
  const startMs = cursor === null ? 0 : Date.parse(cursor)
  const emails = new Set<string>()
  let page = await searchOptOuts(http, cursor)
  const results = page.results ?? []
  addEmails(emails, results)
  const newestMs = Math.max(startMs, ...results.map(modifiedMs).filter((ms) => !Number.isNaN(ms)))
  if (newestMs !== startMs || !page.paging?.next) return { emails: [...emails], cursor: new Date(newestMs).toISOString() }
  for (let read = results.length; page.paging?.next?.after && read + SEARCH_LIMIT <= 10_000; read += SEARCH_LIMIT) {
    page = await searchOptOuts(http, cursor, page.paging.next.after)
    const same = (page.results ?? []).filter((contact) => modifiedMs(contact) === startMs)
    addEmails(emails, same)
    if (same.length < (page.results ?? []).length) break
  }
  return { emails: [...emails], cursor: new Date(startMs + 1).toISOString() }
}

export const hubspot: CrmProviderModule = {
  defaultBaseUrl: 'https://api.hubapi.com',
  // HubSpot's documented burst limit for a private app (Free and Starter accounts; higher tiers allow more), per
  // account across every process: the lowest, so that no account is pushed into 429s.
  budgets: [{ limit: 100, windowMs: 10_000 }],
  checkSecret(secret) {
    const token = secret.trim()
    return token.length >= 10 && token.length <= 512 && !/\s/.test(token) ? null : 'invalid_secret'
  },
  create(context) {
    const token = context.secret.trim()
    // A private app token and an OAuth access token are both bearer tokens.
    const http = context.http(async () => ({ authorization: `Bearer ${context.bearer ? await context.bearer() : token}` }))
    return {
      batchSize: BATCH,
      async test() {
        const response = await http.request({ path: '/account-info/2026-03/details' })
        if (response.status === 200) return { ok: true, account: String((response.body as { portalId?: unknown } | null)?.portalId ?? '') }
        return { ok: false, reason: crmErrorMessage(response) }
      },
      async prepare(settings: ConnectionSettings) {
        if (settings.hubspotPropertiesReady) return settings
        for (const [name, label] of Object.entries(CUSTOM_PROPERTIES)) await ensureProperty(http, name, label)
        return { ...settings, hubspotPropertiesReady: true }
      },
      upsert: (records, mapping) => upsert(http, records, mapping),
      optOuts: (cursor) => optOuts(http, cursor),
    }
  },
}
