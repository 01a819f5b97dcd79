/**
 * Brevo (ex-Sendinblue) is a contact base keyed by email, not a company CRM: each email of a lead becomes a contact
 * whose text attributes carry its company, and a lead without an email has nothing to give it. A few contacts are
 * written one call each (synchronous answers: created or updated, and each refusal on its own row); more go through
 * the asynchronous import, one request instead of a hundred. Shapes: developers.brevo.com/reference (create-contact,
 * get-contact-info, import-contacts, get-process, get-contacts, get-attributes, create-attribute, get-account).
 */
import pMap from 'p-map'
import { sleep } from '#app/.server/enrichment/limits.ts'
import { CRM_FIELDS, CRM_KEY_FIELDS, valuesToWrite, type CrmField, type CrmMapping, type CrmRecord, type CrmRowResult, type CrmValues } from '#app/domain/crm.ts'
import { CrmAuthError, CrmUnavailableError, crmErrorMessage, type CrmHttp, type CrmResponse } from '../crm-http.ts'
import type { ConnectionSettings, CrmAdapter, CrmProviderModule, OptOutPage } from './types.ts'

/**
 * Our text attributes, by field. The phone is not Brevo's SMS or LANDLINE_NUMBER: those are validated as phone
 * numbers and would refuse the whole contact over a company number printed in a form they do not read.
 */
const ATTRIBUTES: Record<CrmField, string> = {
  name: 'COMPANY',
  address: 'ADDRESS',
  city: 'CITY',
  postal_code: 'POSTAL_CODE',
  country_code: 'COUNTRY_CODE',
  phone: 'LEADATLAS_PHONE',
  website: 'WEBSITE',
  domain: 'DOMAIN',
  siren: 'SIREN',
  siret: 'SIRET',
  naf_code: 'NAF',
  headcount: 'HEADCOUNT',
  rating: 'RATING',
  facebook: 'FACEBOOK',
  linkedin: 'LINKEDIN',
  twitter: 'TWITTER',
  instagram: 'INSTAGRAM',
  tiktok: 'TIKTOK',
  technologies: 'TECHNOLOGIES',
  provenance: 'LEADATLAS_PROVENANCE',
  leadatlas_id: 'LEADATLAS_ID',
}
/** The company's dedupe key, so a segment or an export from Brevo can tell which contacts are one business. */
const KEY_ATTRIBUTE = 'LEADATLAS_KEY'
const OUR_ATTRIBUTES = [...CRM_FIELDS.map((field) => ATTRIBUTES[field]), KEY_ATTRIBUTE]

/** Up to this many contacts a batch is written one call each; beyond, one import. */
const SYNC_CONTACTS = 10
/** Reads before an import, in flight at once (the budgets still pace them). */
const READ_CONCURRENCY = 4
// GET /v3/processes is outside the /v3/contacts family: Brevo allows it 100 requests an hour per account, so the
// import is polled sparsely (an import of a hundred contacts usually completes within a few seconds).
const POLL = { firstMs: 500, maxMs: 15_000, deadlineMs: 120_000 }
const OPT_OUT_PAGE = 500
/** Pages per optOuts call (10,000 contacts); past them the cursor resumes at the next page. */
const OPT_OUT_PAGES = 20
/** Our clock against Brevo's, when a cursor has to be our time. */
const CLOCK_SKEW_MS = 60_000

interface BrevoContact {
  attributes: Record<string, unknown>
  listIds: number[]
}

/** One email of the batch and the record it was found in (a shared address is written once, for its first record). */
interface Entry {
  email: string
  record: CrmRecord
  /** undefined: not read; null: not in Brevo yet. */
  existing?: BrevoContact | null
}

interface Item {
  entry: Entry
  attributes: Record<string, string>
}

type ContactOutcome = { outcome: 'created' | 'updated' | 'skipped' } | { outcome: 'failed'; reason: string }

/** Brevo refused one contact (its message is the row's reason); the rest of the batch goes on. */
class RowRefused extends Error {}

function refuse(response: CrmResponse): never {
  if (response.status === 401 || response.status === 403) throw new CrmAuthError(crmErrorMessage(response))
  throw new RowRefused(crmErrorMessage(response))
}

/** A field written only where Brevo has nothing needs the contact read first. */
function needsRead(record: CrmRecord, mapping: CrmMapping): boolean {
  return CRM_FIELDS.some((field) => !CRM_KEY_FIELDS.has(field) && mapping[field] === 'fill_empty' && record.company[field] !== undefined)
}

function valuesOf(contact: BrevoContact): CrmValues {
  const values: CrmValues = {}
  for (const field of CRM_FIELDS) {
    const value = contact.attributes[ATTRIBUTES[field]]
    if (typeof value === 'string' || typeof value === 'number') values[field] = String(value)
  }
  return values
}

function attributesFor(entry: Entry, mapping: CrmMapping): Record<string, string> {
  const values = valuesToWrite(entry.record, mapping, entry.existing ? valuesOf(entry.existing) : {})
  const attributes: Record<string, string> = { [KEY_ATTRIBUTE]: entry.record.key }
  for (const [field, value] of Object.entries(values)) attributes[ATTRIBUTES[field as CrmField]] = value
  return attributes
}

function unchanged(existing: BrevoContact | null | undefined, attributes: Record<string, string>, listIds: number[] | undefined): boolean {
  if (!existing) return false
  if (listIds?.some((id) => !existing.listIds.includes(id))) return false
  return Object.entries(attributes).every(([name, value]) => String(existing.attributes[name] ?? '') === value)
}

async function readContact(http: CrmHttp, email: string): Promise<BrevoContact | null> {
  const response = await http.request({ path: `/v3/contacts/${encodeURIComponent(email)}` })
  if (response.status === 404) return null
  if (response.status !== 200) refuse(response)
  const body = response.body as Partial<BrevoContact> | null
  return { attributes: body?.attributes ?? {}, listIds: body?.listIds ?? [] }
}

async function postContact(http: CrmHttp, item: Item, listIds: number[] | undefined): Promise<ContactOutcome> {
  const body = { email: item.entry.email, attributes: item.attributes, updateEnabled: true, ...(listIds ? { listIds } : {}) }
  try {
    const response = await http.request({ method: 'POST', path: '/v3/contacts', body })
    // 201 with the new contact's id; 204 when updateEnabled updated an existing one.
    if (response.status === 201) return { outcome: 'created' }
    if (response.status >= 200 && response.status < 300) return { outcome: 'updated' }
    refuse(response)
  } catch (error) {
    if (error instanceof RowRefused) return { outcome: 'failed', reason: error.message }
    throw error
  }
}

/** Reads what fill_empty needs, then keeps what would change something: the items to write. */
async function plan(http: CrmHttp, entries: Entry[], mapping: CrmMapping, listIds: number[] | undefined, concurrency: number) {
  const outcomes = new Map<string, ContactOutcome>()
  const items: Item[] = []
  await pMap(
    entries.filter((entry) => needsRead(entry.record, mapping)),
    async (entry) => {
      try {
        entry.existing = await readContact(http, entry.email)
      } catch (error) {
        if (!(error instanceof RowRefused)) throw error
        outcomes.set(entry.email, { outcome: 'failed', reason: error.message })
      }
    },
    { concurrency },
  )
  for (const entry of entries) {
    if (outcomes.has(entry.email)) continue
    const attributes = attributesFor(entry, mapping)
    if (unchanged(entry.existing, attributes, listIds)) outcomes.set(entry.email, { outcome: 'skipped' })
    else items.push({ entry, attributes })
  }
  return { outcomes, items }
}

async function postEach(http: CrmHttp, items: Item[], listIds: number[] | undefined, outcomes: Map<string, ContactOutcome>): Promise<void> {
  for (const item of items) outcomes.set(item.entry.email, await postContact(http, item, listIds))
}

async function waitForProcess(http: CrmHttp, processId: number): Promise<string> {
  const deadline = Date.now() + POLL.deadlineMs
  for (let delay = POLL.firstMs; ; delay = Math.min(delay * 2, POLL.maxMs)) {
    await sleep(delay)
    const response = await http.request({ path: `/v3/processes/${processId}` })
    if (response.status === 401 || response.status === 403) refuse(response)
    const status = (response.body as { status?: unknown } | null)?.status
    if (response.status === 200 && (status === 'completed' || status === 'failed' || status === 'cancelled')) return status
    // Still queued or in process: the job retries the batch later, and importing the same contacts again is harmless.
    if (Date.now() + delay > deadline) throw new CrmUnavailableError('brevo_import_pending', delay)
  }
}

/**
 * The import says neither which contacts it created nor which it refused one by one (only a CSV report behind a
 * URL of Brevo's own): a contact read before is created or updated as the read said, else as our crm_records say.
 */
function importedOutcome(entry: Entry): ContactOutcome {
  if (entry.existing !== undefined) return { outcome: entry.existing ? 'updated' : 'created' }
  return { outcome: entry.record.remoteId ? 'updated' : 'created' }
}

async function importItems(http: CrmHttp, items: Item[], listIds: number[] | undefined, outcomes: Map<string, ContactOutcome>): Promise<void> {
  const body = {
    jsonBody: items.map((item) => ({ email: item.entry.email, attributes: item.attributes })),
    updateExistingContacts: true,
    // A field we do not send stays as it is in Brevo (fill_empty, skip).
    emptyContactsAttributes: false,
    disableNotification: true,
    ...(listIds ? { listIds } : {}),
  }
  const response = await http.request({ method: 'POST', path: '/v3/contacts/import', body })
  if (response.status === 401 || response.status === 403) refuse(response)
  // A refused import names no contact: one call each tells which contact Brevo refuses, and writes the others.
  if (response.status === 400) return postEach(http, items, listIds, outcomes)
  const processId = (response.body as { processId?: unknown } | null)?.processId
  if (response.status !== 202 || typeof processId !== 'number') throw new CrmUnavailableError(`brevo_import_http_${response.status}`)
  const status = await waitForProcess(http, processId)
  for (const item of items) {
    outcomes.set(item.entry.email, status === 'completed' ? importedOutcome(item.entry) : { outcome: 'failed', reason: `Brevo import ${processId} ${status}` })
  }
}

function entriesOf(records: readonly CrmRecord[]): Entry[] {
  const entries = new Map<string, Entry>()
  for (const record of records) for (const contact of record.contacts) if (!entries.has(contact.email)) entries.set(contact.email, { email: contact.email, record })
  return [...entries.values()]
}

/** A record is its first contact (remoteId) and follows it; any refused contact fails the record, naming it. */
function recordResult(record: CrmRecord, outcomes: Map<string, ContactOutcome>): CrmRowResult {
  const first = record.contacts[0]
  if (!first) return { leadId: record.leadId, outcome: 'skipped', remoteId: null, reason: 'no_email' }
  const mine = record.contacts.map((contact) => ({ email: contact.email, ...(outcomes.get(contact.email) ?? { outcome: 'skipped' as const }) }))
  const failed = mine.find((contact) => contact.outcome === 'failed')
  if (failed && 'reason' in failed) {
    const reason = record.contacts.length > 1 ? `${failed.email}: ${failed.reason}` : failed.reason
    return { leadId: record.leadId, outcome: 'failed', remoteId: mine[0]!.outcome === 'failed' ? null : first.email, reason }
  }
  const outcome = mine[0]!.outcome === 'created' ? 'created' : mine.some((contact) => contact.outcome !== 'skipped') ? 'updated' : 'skipped'
  return { leadId: record.leadId, outcome, remoteId: first.email, reason: null }
}

async function ensureAttributes(http: CrmHttp): Promise<void> {
  const response = await http.request({ path: '/v3/contacts/attributes' })
  if (response.status !== 200) refuse(response)
  const listed = (response.body as { attributes?: { name?: unknown }[] } | null)?.attributes ?? []
  const names = new Set(listed.map((attribute) => String(attribute.name ?? '').toUpperCase()))
  for (const name of OUR_ATTRIBUTES.filter((attribute) => !names.has(attribute))) {
    const created = await http.request({ method: 'POST', path: `/v3/contacts/attributes/normal/${name}`, body: { type: 'text' } })
    if (created.status >= 200 && created.status < 300) continue
    // Another prepare of the same account created it in between.
    if (created.status === 400 && /exist|unique/i.test(crmErrorMessage(created))) continue
    refuse(created)
  }
}

async function ensureList(http: CrmHttp, listId: number): Promise<void> {
  const response = await http.request({ path: `/v3/contacts/lists/${listId}` })
  if (response.status === 200) return
  if (response.status === 404) throw new Error(`Brevo has no list ${listId}: ${crmErrorMessage(response)}`)
  refuse(response)
}

/** Where a read resumes: Brevo's own times (its clock, not ours), and the page a long read stopped at. */
interface OptOutCursor {
  since: string | null
  offset: number
  newest: string | null
  /** When a read over several pages began (ours, minus the skew margin). */
  scanStart: string | null
}

function readCursor(cursor: string | null): OptOutCursor {
  const fresh = { since: cursor, offset: 0, newest: null, scanStart: null }
  if (!cursor?.startsWith('{')) return fresh
  try {
    const parsed = JSON.parse(cursor) as Partial<OptOutCursor>
    return { since: parsed.since ?? null, offset: Number(parsed.offset) || 0, newest: parsed.newest ?? null, scanStart: parsed.scanStart ?? null }
  } catch {
    return { ...fresh, since: null }
  }
}

function later(a: string | null, b: unknown): string | null {
  const time = typeof b === 'string' ? Date.parse(b) : Number.NaN
  if (Number.isNaN(time)) return a
  return a !== null && Date.parse(a) >= time ? a : new Date(time).toISOString()
}

/**
 * The cursor after a complete read. One page is one snapshot: its newest modifiedAt is exact. Over several pages a
 * contact already paged past can change while later ones are read, and the newest time seen would skip it: the read
 * then resumes from when it began.
 */
function finalCursor(at: OptOutCursor, pages: number, startedAt: string): string {
  const scanStart = at.scanStart ?? startedAt
  if (pages === 1 && at.offset === 0) return at.newest ?? at.since ?? scanStart
  return at.newest && Date.parse(at.newest) < Date.parse(scanStart) ? at.newest : scanStart
}

async function optOutPage(http: CrmHttp, since: string | null, offset: number) {
  // Ascending creation order: contacts created while we page are added at the end, the offsets stay valid.
  const query = { limit: OPT_OUT_PAGE, offset, sort: 'asc', modifiedSince: since ?? undefined }
  const response = await http.request({ path: '/v3/contacts', query })
  if (response.status === 401 || response.status === 403) refuse(response)
  if (response.status !== 200) throw new CrmUnavailableError(`brevo_contacts_http_${response.status}`)
  return (response.body as { contacts?: { email?: unknown; emailBlacklisted?: unknown; modifiedAt?: unknown }[] } | null)?.contacts ?? []
}

async function readOptOuts(http: CrmHttp, cursor: string | null): Promise<OptOutPage> {
  const startedAt = new Date(Date.now() - CLOCK_SKEW_MS).toISOString()
  const at = readCursor(cursor)
  const emails: string[] = []
  for (let page = 1; page <= OPT_OUT_PAGES; page++) {
    const contacts = await optOutPage(http, at.since, at.offset)
    for (const contact of contacts) {
      at.newest = later(at.newest, contact.modifiedAt)
      if (contact.emailBlacklisted === true && typeof contact.email === 'string') emails.push(contact.email.toLowerCase())
    }
    if (contacts.length < OPT_OUT_PAGE) return { emails, cursor: finalCursor(at, page, startedAt) }
    at.offset += OPT_OUT_PAGE
  }
  return { emails, cursor: JSON.stringify({ ...at, scanStart: at.scanStart ?? startedAt }) }
}

function createAdapter(http: CrmHttp): CrmAdapter {
  return {
    batchSize: 100,
    async test() {
      const response = await http.request({ path: '/v3/account' })
      if (response.status !== 200) return { ok: false, reason: crmErrorMessage(response) }
      const account = response.body as { companyName?: unknown; email?: unknown } | null
      const name = typeof account?.companyName === 'string' && account.companyName.trim() ? account.companyName.trim() : account?.email
      return { ok: true, account: typeof name === 'string' && name ? name : 'Brevo' }
    },
    async prepare(settings: ConnectionSettings) {
      await ensureAttributes(http)
      if (settings.brevoListId) await ensureList(http, settings.brevoListId)
      return { ...settings }
    },
    async upsert(records, mapping, settings) {
      const listIds = settings.brevoListId ? [settings.brevoListId] : undefined
      const entries = entriesOf(records)
      const small = entries.length <= SYNC_CONTACTS
      const { outcomes, items } = await plan(http, entries, mapping, listIds, small ? 1 : READ_CONCURRENCY)
      if (items.length) await (small ? postEach(http, items, listIds, outcomes) : importItems(http, items, listIds, outcomes))
      return records.map((record) => recordResult(record, outcomes))
    },
    optOuts: (cursor) => readOptOuts(http, cursor),
  }
}

export const brevo: CrmProviderModule = {
  defaultBaseUrl: 'https://api.brevo.com',
  // Brevo's documented rate for every /v3/contacts endpoint on all plans: 10 requests per second (36,000 an hour).
  budgets: [{ limit: 10, windowMs: 1_000 }],
  checkSecret(secret) {
    const key = secret.trim()
    return /^xkeysib-[\w-]{20,}$/.test(key) || /^\S{20,200}$/.test(key) ? null : 'invalid_secret'
  },
  create(context) {
    const key = context.secret.trim()
    return createAdapter(context.http(() => ({ 'api-key': key })))
  },
}
