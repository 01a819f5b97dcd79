/**
 * Pipedrive (issue 30): a lead becomes an organization, its addresses persons linked to it, and (when the connection
 * asks) a lead in the Leads inbox. The v1 organization and person endpoints are out of support since 1 Aug 2026, so
 * organizations, persons and their fields go through API v2 (custom values in a `custom_fields` object keyed by the
 * fields' 40-character hashes, PATCH for updates); leads and the current user have no v2 endpoint and stay on v1.
 *
 * Pipedrive has no batch upsert and no unique-value field to upsert by: each record is looked up by its dedupe keys in
 * our "LeadAtlas key" custom field (exact-match search), then read, then patched with what changed or created.
 *
 * Where our fields go: `name` and `address` are the organization's own fields (v2 `address: { value }`); everything
 * else, including phone, website, domain, city, postal code and country code, goes to a text custom field of ours.
 * Pipedrive has no standard organization field for a phone, a website or a domain, and city, postal code and country
 * are not written as address subfields because Pipedrive geocodes the address and rewrites them (the country as a
 * name, "France" for our "FR"): a value read back would never equal ours and every push would rewrite it.
 */
import { changesAnything, CRM_FIELDS, valuesToWrite, type CrmField, type CrmMapping, type CrmRecord, type CrmRowResult, type CrmValues } from '#app/domain/crm.ts'
import { CrmAuthError, crmErrorMessage, type CrmHttp, type CrmRequest, type CrmResponse } from '../crm-http.ts'
import type { AdapterContext, ConnectionSettings, CrmAdapter, CrmProviderModule } from './types.ts'

/** Where a value lives in Pipedrive: our custom fields by CrmField, plus `key` for the dedupe key. */
type Slot = Exclude<CrmField, 'name' | 'address'> | 'key'

interface CustomField {
  slot: Slot
  name: string
  type: 'varchar' | 'text'
}

/** Pipedrive's lengths: varchar holds 255 characters, text 65k; the org's name and address 255. */
const MAX_LENGTH = { varchar: 255, text: 65_000 } as const

const CUSTOM_FIELDS: readonly CustomField[] = [
  { slot: 'key', name: 'LeadAtlas key', type: 'varchar' },
  { slot: 'leadatlas_id', name: 'LeadAtlas ID', type: 'varchar' },
  { slot: 'city', name: 'City', type: 'varchar' },
  { slot: 'postal_code', name: 'Postal code', type: 'varchar' },
  { slot: 'country_code', name: 'Country code', type: 'varchar' },
  { slot: 'phone', name: 'Phone', type: 'varchar' },
  { slot: 'website', name: 'Website', type: 'varchar' },
  { slot: 'domain', name: 'Domain', type: 'varchar' },
  { slot: 'siren', name: 'SIREN', type: 'varchar' },
  { slot: 'siret', name: 'SIRET', type: 'varchar' },
  { slot: 'naf_code', name: 'NAF', type: 'varchar' },
  { slot: 'headcount', name: 'Headcount', type: 'varchar' },
  { slot: 'rating', name: 'Rating', type: 'varchar' },
  { slot: 'linkedin', name: 'LinkedIn', type: 'varchar' },
  { slot: 'facebook', name: 'Facebook', type: 'varchar' },
  { slot: 'twitter', name: 'Twitter', type: 'varchar' },
  { slot: 'instagram', name: 'Instagram', type: 'varchar' },
  { slot: 'tiktok', name: 'TikTok', type: 'varchar' },
  { slot: 'technologies', name: 'Technologies', type: 'text' },
  { slot: 'provenance', name: 'Source (LeadAtlas)', type: 'text' },
]

/** A field found by name is reused only when it can hold our text (a same-named dropdown or date cannot). */
const TEXT_FIELD_TYPES = new Set(['varchar', 'varchar_auto', 'text'])

type FieldKeys = Record<string, string>

interface PipedriveField {
  field_code: string
  field_name: string
  field_type: string
  is_custom_field?: boolean
}

interface PipedriveOrganization {
  id: number
  name?: string | null
  address?: { value?: string | null } | string | null
  is_deleted?: boolean
  custom_fields?: Record<string, unknown> | null
}

interface SearchItem<T> {
  item?: T
}

interface Envelope<T> {
  success?: boolean
  data?: T | null
  additional_data?: { next_cursor?: string | null } | null
}

/** Pipedrive refused one request for what it carried (4xx): the row fails with Pipedrive's own words. */
class PipedriveRefusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
    this.name = 'PipedriveRefusal'
  }
}

function dataOf<T>(response: CrmResponse): T | null {
  return ((response.body ?? {}) as Envelope<T>).data ?? null
}

/** Refused credentials stop the push (an admin must fix the token); any other 4xx is the request's own refusal. */
function accepted(response: CrmResponse): CrmResponse {
  if (response.status === 401 || response.status === 403) throw new CrmAuthError(crmErrorMessage(response))
  if (response.status >= 400) throw new PipedriveRefusal(response.status, crmErrorMessage(response))
  return response
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'string') return value.trim() || undefined
  // v2 returns some custom field types as objects ({ value, currency }, { value, formatted_address }).
  if (value && typeof value === 'object' && 'value' in value) return textOf((value as { value: unknown }).value)
  return undefined
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

function cut(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value
}

/**
 * The record's values cut to what Pipedrive stores: a value longer than its field would be refused, or stored cut and
 * then never equal ours again (every push would rewrite it).
 */
function fitted(record: CrmRecord): CrmRecord {
  const company: CrmValues = {}
  for (const [field, value] of Object.entries(record.company) as [CrmField, string][]) {
    const custom = CUSTOM_FIELDS.find((candidate) => candidate.slot === field)
    company[field] = cut(value, MAX_LENGTH[custom?.type ?? 'varchar']).trimEnd()
  }
  return { ...record, company }
}

/** The organization's current values by CrmField, and the dedupe key it holds. */
function readOrganization(organization: PipedriveOrganization, keys: FieldKeys): { values: CrmValues; key: string | undefined } {
  const values: CrmValues = {}
  const name = textOf(organization.name)
  if (name) values.name = name
  const address = textOf(organization.address)
  if (address) values.address = address
  const custom = organization.custom_fields ?? {}
  for (const field of CRM_FIELDS) {
    const code = keys[field]
    const value = code ? textOf(custom[code]) : undefined
    if (value !== undefined) values[field] = value
  }
  return { values, key: keys.key ? textOf(custom[keys.key]) : undefined }
}

interface OrganizationBody {
  name?: string
  address?: { value: string }
  custom_fields?: Record<string, string>
}

function organizationBody(values: CrmValues, keys: FieldKeys, key?: string): OrganizationBody {
  const body: OrganizationBody = {}
  const custom: Record<string, string> = {}
  for (const [field, value] of Object.entries(values) as [CrmField, string][]) {
    if (field === 'name') body.name = value
    else if (field === 'address') body.address = { value }
    else if (keys[field]) custom[keys[field]] = value
  }
  if (key !== undefined && keys.key) custom[keys.key] = key
  if (Object.keys(custom).length) body.custom_fields = custom
  return body
}

/** The dedupe keys an organization was stored under: ours holds one, a hand-filled one may hold several. */
function holdsKey(stored: string | undefined, alias: string): boolean {
  return Boolean(stored?.split(/\s+/).some((part) => sameText(part, alias)))
}

/**
 * Pipedrive's token-based limits, counted here as requests (a simplification: a search or a write costs more tokens
 * than a read). The burst window is the smallest plan's per-token rate (20 requests per rolling 2 s; Pipedrive's own
 * 429 with Retry-After pauses every process when the real figure is lower, e.g. for searches). The daily window only
 * keeps a runaway push from eating the account's day: the smallest plan's budget is 30,000 tokens per seat, so an
 * account whose pushes are mostly searches can run out first, and then Pipedrive's 429 postpones the push to the
 * reset (the job is retried, nothing is lost).
 */
const BUDGETS = [
  { limit: 20, windowMs: 2_000 },
  { limit: 10_000, windowMs: 86_400_000 },
] as const

const TOKEN = /^[A-Za-z0-9]{20,100}$/

export const pipedrive: CrmProviderModule = {
  defaultBaseUrl: 'https://api.pipedrive.com',
  budgets: BUDGETS,
  checkSecret: (secret) => (TOKEN.test(secret) ? null : 'invalid_secret'),
  create: (context) => createPipedriveAdapter(context),
}

function createPipedriveAdapter(context: AdapterContext): CrmAdapter {
  // An API token goes in its own header; an OAuth access token is a bearer token.
  const http = context.http(async (): Promise<Record<string, string>> => (context.bearer ? { authorization: `Bearer ${await context.bearer()}` } : { 'x-api-token': context.secret }))
  const call = async (request: CrmRequest) => accepted(await http.request(request))
  let preparedKeys: Promise<FieldKeys> | null = null
  // A failed lookup is not remembered: the next batch tries again.
  const prepareOnce = (call: Call, settings: ConnectionSettings) =>
    prepareFields(call, settings.pipedriveFieldKeys ?? {}).catch((error: unknown) => {
      preparedKeys = null
      throw error
    })
  const adapter: CrmAdapter = {
    batchSize: 50,
    test: () => testToken(http),
    prepare: async (settings) => ({ ...settings, pipedriveFieldKeys: await prepareFields(call, settings.pipedriveFieldKeys ?? {}) }),
    async upsert(records, mapping, settings) {
      // A connection stored before its fields were ready (or a settings row lost) still pushes: the fields are found by name.
      const keys = hasEveryKey(settings.pipedriveFieldKeys) ? settings.pipedriveFieldKeys : await (preparedKeys ??= prepareOnce(call, settings))
      const run: Run = { http, call, keys, mapping, createLeads: Boolean((settings as { pipedriveCreateLeads?: boolean }).pipedriveCreateLeads), seen: new Map(), people: new Set() }
      const results: CrmRowResult[] = []
      for (const record of records) results.push(await upsertRecord(run, fitted(record)))
      return results
    },
  }
  return adapter
}

function hasEveryKey(keys: FieldKeys | undefined): keys is FieldKeys {
  return Boolean(keys && CUSTOM_FIELDS.every((field) => keys[field.slot]))
}

async function testToken(http: CrmHttp): Promise<{ ok: true; account: string } | { ok: false; reason: string }> {
  const response = await http.request({ path: '/api/v1/users/me' })
  if (response.status >= 400) return { ok: false, reason: crmErrorMessage(response) }
  const user = dataOf<{ company_name?: string; company_domain?: string; company_id?: number; email?: string }>(response)
  const account = user?.company_name || user?.company_domain || (user?.company_id ? String(user.company_id) : user?.email)
  return account ? { ok: true, account } : { ok: false, reason: 'Pipedrive returned no account' }
}

type Call = (request: CrmRequest) => Promise<CrmResponse>

async function listFields(call: Call): Promise<PipedriveField[]> {
  const fields: PipedriveField[] = []
  let cursor: string | undefined
  do {
    const response = await call({ path: '/api/v2/organizationFields', query: { limit: 500, cursor } })
    fields.push(...(dataOf<PipedriveField[]>(response) ?? []))
    cursor = ((response.body ?? {}) as Envelope<unknown>).additional_data?.next_cursor ?? undefined
  } while (cursor)
  return fields
}

/**
 * Our custom fields' keys, each created only when neither the stored key nor a text field of the same name exists:
 * a field an admin renamed keeps its key, one made by hand (or by an earlier connection) is reused.
 */
async function prepareFields(call: Call, stored: FieldKeys): Promise<FieldKeys> {
  const fields = await listFields(call)
  const byCode = new Map(fields.map((field) => [field.field_code, field]))
  const keys: FieldKeys = {}
  for (const wanted of CUSTOM_FIELDS) {
    const kept = stored[wanted.slot] ? byCode.get(stored[wanted.slot]!) : undefined
    const named = fields.find((field) => field.is_custom_field !== false && TEXT_FIELD_TYPES.has(field.field_type) && sameText(field.field_name, wanted.name))
    const found = kept ?? named
    keys[wanted.slot] = found ? found.field_code : await createField(call, wanted)
  }
  return keys
}

async function createField(call: Call, field: CustomField): Promise<string> {
  const response = await call({ method: 'POST', path: '/api/v2/organizationFields', body: { field_name: field.name, field_type: field.type } })
  const code = dataOf<PipedriveField>(response)?.field_code
  if (!code) throw new PipedriveRefusal(response.status, `Pipedrive created the field "${field.name}" without a key`)
  return code
}

/** One upsert call's state: the organizations and persons met in this batch (Pipedrive's search index lags writes). */
interface Run {
  http: CrmHttp
  call: Call
  keys: FieldKeys
  mapping: CrmMapping
  createLeads: boolean
  seen: Map<string, number>
  people: Set<string>
}

async function upsertRecord(run: Run, record: CrmRecord): Promise<CrmRowResult> {
  let found: PipedriveOrganization | null = null
  try {
    found = await findOrganization(run, record)
    const written = found ? await updateOrganization(run, record, found) : await createOrganization(run, record)
    for (const part of written.key.split(/\s+/)) run.seen.set(part.toLowerCase(), written.id)
    const people = await addPersons(run, record, written.id)
    const outcome = written.outcome === 'skipped' && people.created > 0 ? 'updated' : written.outcome
    const notes = [...(outcome === 'skipped' ? ['unchanged'] : []), ...written.notes, ...people.notes]
    return { leadId: record.leadId, outcome, remoteId: String(written.id), reason: notes.length ? notes.join('; ') : null }
  } catch (error) {
    if (!(error instanceof PipedriveRefusal)) throw error
    return { leadId: record.leadId, outcome: 'failed', remoteId: found ? String(found.id) : null, reason: error.message }
  }
}

/** The organization by id; null when it is gone (deleted in Pipedrive since the last push). */
async function getOrganization(run: Run, id: number): Promise<PipedriveOrganization | null> {
  const response = await run.http.request({ path: `/api/v2/organizations/${id}` })
  if (response.status === 404 || response.status === 410) return null
  const organization = dataOf<PipedriveOrganization>(accepted(response))
  return organization && !organization.is_deleted ? organization : null
}

/**
 * By the id an earlier push stored, else by each dedupe key in turn. The key field holds the key the organization was
 * created under (one value: an exact-match search compares the whole value), and a record carries every key it may
 * have been created under (`domain:` before the registry knew its SIRET), so searching each alias finds it.
 */
async function findOrganization(run: Run, record: CrmRecord): Promise<PipedriveOrganization | null> {
  const id = record.remoteId && /^\d+$/.test(record.remoteId) ? Number(record.remoteId) : null
  const byId = id ? await getOrganization(run, id) : null
  if (byId) return byId
  for (const alias of record.aliases) {
    const seen = run.seen.get(alias.toLowerCase())
    const found = seen ? await getOrganization(run, seen) : await searchByKey(run, alias)
    if (found) return found
  }
  return null
}

async function searchByKey(run: Run, alias: string): Promise<PipedriveOrganization | null> {
  const response = await run.call({ path: '/api/v2/organizations/search', query: { term: alias, fields: 'custom_fields', exact_match: true, limit: 10 } })
  const items = dataOf<{ items?: SearchItem<{ id?: number; custom_fields?: unknown }>[] }>(response)?.items ?? []
  for (const { item } of items) {
    if (!item?.id) continue
    // The match may be in another custom field (or fuzzy, for a long term): only our key field identifies the record.
    const listed = Array.isArray(item.custom_fields) ? item.custom_fields.filter((value): value is string => typeof value === 'string') : null
    if (listed && !listed.some((value) => holdsKey(value, alias))) continue
    const organization = await getOrganization(run, item.id)
    if (organization && holdsKey(readOrganization(organization, run.keys).key, alias)) return organization
  }
  return null
}

interface Written {
  id: number
  /** The dedupe key the organization holds now: what a later record of this batch finds it by. */
  key: string
  outcome: 'created' | 'updated' | 'skipped'
  notes: string[]
}

async function updateOrganization(run: Run, record: CrmRecord, organization: PipedriveOrganization): Promise<Written> {
  const { values: existing, key } = readOrganization(organization, run.keys)
  const values = valuesToWrite(record, run.mapping, existing)
  // The key it was created under stays: other exports find it by that one. An organization without one gets ours.
  const missingKey = key === undefined
  const held = key ?? record.key
  if (!changesAnything(values, existing) && !missingKey) return { id: organization.id, key: held, outcome: 'skipped', notes: [] }
  const changed = Object.fromEntries(Object.entries(values).filter(([field, value]) => existing[field as CrmField] !== value)) as CrmValues
  await run.call({ method: 'PATCH', path: `/api/v2/organizations/${organization.id}`, body: organizationBody(changed, run.keys, missingKey ? record.key : undefined) })
  return { id: organization.id, key: held, outcome: 'updated', notes: [] }
}

async function createOrganization(run: Run, record: CrmRecord): Promise<Written> {
  const values = valuesToWrite(record, run.mapping, {})
  // Pipedrive requires a name, even when the mapping skips ours.
  const name = values.name ?? record.company.name ?? record.company.domain ?? record.key
  const response = await run.call({ method: 'POST', path: '/api/v2/organizations', body: organizationBody({ ...values, name }, run.keys, record.key) })
  const id = dataOf<{ id?: number }>(response)?.id
  if (!id) throw new PipedriveRefusal(response.status, 'Pipedrive created the organization without an id')
  return { id, key: record.key, outcome: 'created', notes: run.createLeads ? await createLead(run, id, name) : [] }
}

/** A lead in the Leads inbox for a new organization: its failure is noted, the organization stays created. */
async function createLead(run: Run, organizationId: number, title: string): Promise<string[]> {
  try {
    await run.call({ method: 'POST', path: '/api/v1/leads', body: { title, organization_id: organizationId } })
    return []
  } catch (error) {
    if (error instanceof PipedriveRefusal) return [`lead not created: ${error.message}`]
    throw error
  }
}

/** Whether a person with this address exists (anywhere: a salesperson may have filed them under another organization). */
async function personExists(run: Run, email: string): Promise<boolean> {
  const response = await run.call({ path: '/api/v2/persons/search', query: { term: email, fields: 'email', exact_match: true, limit: 10 } })
  const items = dataOf<{ items?: SearchItem<{ emails?: unknown }>[] }>(response)?.items ?? []
  return items.some(({ item }) => Array.isArray(item?.emails) && item.emails.some((value) => typeof value === 'string' && sameText(value, email)))
}

/** One person per address not yet in Pipedrive, linked to the organization; a refused one is noted, the row stands. */
async function addPersons(run: Run, record: CrmRecord, organizationId: number): Promise<{ created: number; notes: string[] }> {
  let created = 0
  const notes: string[] = []
  for (const email of new Set(record.contacts.map((contact) => contact.email.toLowerCase()))) {
    if (run.people.has(email)) continue
    try {
      if (!(await personExists(run, email))) {
        const name = email.split('@')[0] || record.company.name || email
        await run.call({ method: 'POST', path: '/api/v2/persons', body: { name, emails: [{ value: email, primary: true, label: 'work' }], org_id: organizationId } })
        created++
      }
      run.people.add(email)
    } catch (error) {
      if (!(error instanceof PipedriveRefusal)) throw error
      notes.push(`person ${email} not added: ${error.message}`)
    }
  }
  return { created, notes }
}
