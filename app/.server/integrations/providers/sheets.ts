/**
 * Google Sheets (API v4): one row per business in a tab the user shares with our service account. Column A holds
 * the record's key, row 1 our header; the other columns are found by their header label, so a field added to
 * CRM_FIELDS later gets a new column at the end instead of shifting the user's. Appending is not idempotent: every
 * upsert reads column A first and finds each record's row by any of its aliases, updates the changed cells, and
 * appends only the rows no alias found. Every write is RAW: nothing a lead contains is ever evaluated as a formula.
 * Shapes: developers.google.com/workspace/sheets/api/reference/rest (spreadsheets.get, values.batchGet,
 * values.update, values.batchUpdate, values.append) and developers.google.com/identity/protocols/oauth2/service-account.
 */
import crypto from 'node:crypto'
import { CRM_FIELDS, valuesToWrite, type CrmField, type CrmMapping, type CrmRecord, type CrmRowResult, type CrmValues } from '#app/domain/crm.ts'
import { CrmAuthError, crmErrorMessage, type CrmHttp, type CrmRequest, type CrmResponse } from '../crm-http.ts'
import type { AdapterContext, ConnectionSettings, CrmAdapter, CrmProviderModule, TestOutcome } from './types.ts'

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets'
const KEY_LABEL = 'LeadAtlas key'
const EMAILS_LABEL = 'Emails'
/** Header labels, in English whatever the user's language: they are how the columns are found again. */
const FIELD_LABELS: Record<CrmField, string> = {
  name: 'Name',
  address: 'Address',
  city: 'City',
  postal_code: 'Postal code',
  country_code: 'Country code',
  phone: 'Phone',
  website: 'Website',
  domain: 'Domain',
  siren: 'SIREN',
  siret: 'SIRET',
  naf_code: 'NAF code',
  headcount: 'Headcount',
  rating: 'Rating',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  twitter: 'Twitter',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  technologies: 'Technologies',
  provenance: 'Provenance',
  leadatlas_id: 'LeadAtlas id',
}
const HEADER = [KEY_LABEL, ...CRM_FIELDS.map((field) => FIELD_LABELS[field]), EMAILS_LABEL]
/** A new token is asked this long before the current one expires (a request in flight must not carry a dead one). */
const TOKEN_MARGIN_MS = 5 * 60_000
/** batchGet takes its ranges in the query string: kept well under what Google's front ends accept in a URL. */
const MAX_QUERY_CHARS = 6_000

interface ServiceAccount {
  clientEmail: string
  privateKey: crypto.KeyObject
}

function readServiceAccount(secret: string): ServiceAccount | null {
  try {
    const json = JSON.parse(secret) as { type?: unknown; client_email?: unknown; private_key?: unknown }
    if (json.type !== 'service_account' || typeof json.client_email !== 'string' || !json.client_email.includes('@') || typeof json.private_key !== 'string') return null
    return { clientEmail: json.client_email, privateKey: crypto.createPrivateKey(json.private_key) }
  } catch {
    return null
  }
}

/** The service account's signed assertion (RS256), for `aud` = the token endpoint it is posted to. */
function assertion(account: ServiceAccount, tokenUrl: string): string {
  const now = Math.floor(Date.now() / 1000)
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iss: account.clientEmail, scope: SCOPE, aud: tokenUrl, iat: now, exp: now + 3600 })}`
  return `${unsigned}.${crypto.sign('sha256', Buffer.from(unsigned), account.privateKey).toString('base64url')}`
}

async function fetchToken(account: ServiceAccount | null, tokenUrl: string): Promise<{ token: string; expiresAt: number }> {
  if (!account) throw new CrmAuthError('invalid_secret: not a Google service-account key (JSON with type "service_account")')
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion(account, tokenUrl) })
  // Our configured endpoint only, never the key file's token_uri, and no redirect followed: a pasted file does not choose where we connect.
  const response = await fetch(tokenUrl, { method: 'POST', body, redirect: 'error', signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } })
  const json = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } | null
  if (response.ok && typeof json?.access_token === 'string') {
    return { token: json.access_token, expiresAt: Date.now() + (Number(json.expires_in) || 3600) * 1000 - TOKEN_MARGIN_MS }
  }
  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    const why = typeof json?.error_description === 'string' ? json.error_description : typeof json?.error === 'string' ? json.error : `HTTP ${response.status}`
    throw new CrmAuthError(`Google refused the service account ${account.clientEmail}: ${why}`)
  }
  // Not an auth error: the CRM client retries it as an outage.
  throw new Error(`google_token_http_${response.status}`)
}

function tokenSource(account: ServiceAccount | null, tokenUrl: string) {
  let cached: { token: string; expiresAt: number } | null = null
  let pending: Promise<string> | null = null
  const refresh = async () => {
    try {
      cached = await fetchToken(account, tokenUrl)
      return cached.token
    } finally {
      pending = null
    }
  }
  return {
    /** The cached token while it is fresh; requests waiting for a new one share the same token request. */
    get(): Promise<string> {
      if (cached && Date.now() < cached.expiresAt) return Promise.resolve(cached.token)
      pending ??= refresh()
      return pending
    },
    drop: () => void (cached = null),
  }
}

/** Google refused one request for reasons of its own (a range, a size): the rows it carried fail with its words. */
class SheetsRefused extends Error {}

function googleMessage(response: CrmResponse): string {
  const message = (response.body as { error?: { message?: unknown } } | null)?.error?.message
  return typeof message === 'string' ? message.slice(0, 500) : crmErrorMessage(response)
}

type Call = (request: CrmRequest) => Promise<unknown>

/** Requests with the bearer token; a token Google stopped accepting is replaced once. The body of a 2xx, else throws. */
function caller(context: AdapterContext, account: ServiceAccount | null): Call {
  // An OAuth connection brings its own fresh token; a service account signs its way to one.
  const tokens = context.bearer ? { get: context.bearer, drop: () => {} } : tokenSource(account, context.tokenUrl ?? 'https://oauth2.googleapis.com/token')
  const http: CrmHttp = context.http(async () => ({ authorization: `Bearer ${await tokens.get()}` }))
  return async (request) => {
    let response = await http.request(request)
    if (response.status === 401) {
      tokens.drop()
      response = await http.request(request)
    }
    if (response.status >= 200 && response.status < 300) return response.body
    if (response.status === 401) throw new CrmAuthError(googleMessage(response))
    if (response.status === 403 || response.status === 404) {
      throw new CrmAuthError(`${googleMessage(response)} Share the spreadsheet with ${account?.clientEmail ?? 'the service account'} as an editor.`)
    }
    throw new SheetsRefused(googleMessage(response))
  }
}

/** The id from a pasted URL (…/spreadsheets/d/{id}/edit) or the id itself. */
function spreadsheetIdOf(settings: ConnectionSettings): string | null {
  const value = settings.spreadsheetId?.trim()
  if (!value) return null
  return value.match(/\/spreadsheets\/d\/([\w-]+)/)?.[1] ?? value
}

const NO_SPREADSHEET = 'spreadsheet_missing: paste the Google Sheets URL (or its id) in the connection settings'
const spreadsheetPath = (id: string) => `/v4/spreadsheets/${encodeURIComponent(id)}`
/** A1 notation with the tab name always quoted (a quote inside doubled): names with spaces, quotes or `!` stay one name. */
const a1 = (sheet: string, cells: string) => `'${sheet.replaceAll("'", "''")}'!${cells}`
const valuesPath = (id: string, range: string) => `${spreadsheetPath(id)}/values/${encodeURIComponent(range)}`

function column(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

async function sheetTitles(call: Call, id: string): Promise<string[]> {
  const body = (await call({ path: spreadsheetPath(id), query: { fields: 'sheets.properties' } })) as { sheets?: { properties?: { title?: unknown } }[] } | null
  return (body?.sheets ?? []).map((sheet) => sheet.properties?.title).filter((title): title is string => typeof title === 'string')
}

/** Ranges in groups whose query string stays short enough for a URL. */
function groups(ranges: string[]): string[][] {
  const out: string[][] = []
  let length = 0
  for (const range of ranges) {
    const encoded = encodeURIComponent(range).length + 8
    if (!out.length || length + encoded > MAX_QUERY_CHARS) {
      out.push([])
      length = 0
    }
    out.at(-1)!.push(range)
    length += encoded
  }
  return out
}

/** The cells of each range (values:batchGet, in the order asked), as text. */
async function readRanges(call: Call, id: string, ranges: string[]): Promise<string[][][]> {
  const out: string[][][] = []
  for (const group of groups(ranges)) {
    const query = group.map((range) => `ranges=${encodeURIComponent(range)}`).join('&')
    const body = (await call({ path: `${spreadsheetPath(id)}/values:batchGet?${query}` })) as { valueRanges?: { values?: unknown[][] }[] } | null
    group.forEach((_, index) => {
      out.push((body?.valueRanges?.[index]?.values ?? []).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))))
    })
  }
  return out
}

async function writeRange(call: Call, id: string, range: string, values: string[][]): Promise<void> {
  await call({ method: 'PUT', path: valuesPath(id, range), query: { valueInputOption: 'RAW' }, body: { range, majorDimension: 'ROWS', values } })
}

/**
 * Our header in row 1: written whole on an empty row, completed at the end when fields were added since. A row 1
 * that is not ours is refused rather than written over: column A must be our key.
 */
async function ensureHeader(call: Call, id: string, sheet: string, header: string[]): Promise<string[]> {
  if (header.every((cell) => !cell.trim())) {
    await writeRange(call, id, a1(sheet, 'A1'), [HEADER])
    return HEADER
  }
  if (header[0]?.trim() !== KEY_LABEL) throw new SheetsRefused(`Row 1 of "${sheet}" is not a LeadAtlas header (column A must be "${KEY_LABEL}"): choose an empty tab.`)
  const missing = HEADER.filter((label) => !header.includes(label))
  if (!missing.length) return header
  await writeRange(call, id, a1(sheet, `${column(header.length)}1`), [missing])
  return [...header, ...missing]
}

interface Layout {
  fields: Map<CrmField, number>
  emails: number | null
  /** Columns A.. up to our last one. */
  width: number
}

function layoutOf(header: string[]): Layout {
  const fields = new Map<CrmField, number>()
  for (const field of CRM_FIELDS) if (header.indexOf(FIELD_LABELS[field]) > 0) fields.set(field, header.indexOf(FIELD_LABELS[field]))
  const emails = header.indexOf(EMAILS_LABEL)
  return { fields, emails: emails > 0 ? emails : null, width: Math.max(1, emails + 1, ...[...fields.values()].map((index) => index + 1)) }
}

interface SheetState {
  layout: Layout
  /** Row number (1-based) by the key in column A; the first row wins when a key repeats. */
  keys: Map<string, number>
}

async function readSheet(call: Call, id: string, sheet: string): Promise<SheetState> {
  const [headerRows, keyColumn] = await readRanges(call, id, [a1(sheet, '1:1'), a1(sheet, 'A:A')])
  const header = await ensureHeader(call, id, sheet, headerRows![0] ?? [])
  const keys = new Map<string, number>()
  keyColumn!.forEach((row, index) => {
    const key = row[0]?.trim()
    if (index > 0 && key && !keys.has(key)) keys.set(key, index + 1)
  })
  return { layout: layoutOf(header), keys }
}

function candidates(record: CrmRecord): string[] {
  return [record.remoteId, ...record.aliases].filter((key): key is string => Boolean(key))
}

/** The found rows' cells (A.. our last column), read in spans of consecutive rows. */
async function readRows(call: Call, id: string, sheet: string, state: SheetState, records: readonly CrmRecord[]): Promise<Map<number, string[]>> {
  const wanted = new Set(records.map((record) => candidates(record).map((key) => state.keys.get(key)).find((row) => row !== undefined)))
  const rows = [...wanted].filter((row): row is number => row !== undefined).sort((a, b) => a - b)
  const spans: [number, number][] = []
  for (const row of rows) {
    const last = spans.at(-1)
    if (last && last[1] === row - 1) last[1] = row
    else spans.push([row, row])
  }
  const last = column(state.layout.width - 1)
  const read = await readRanges(call, id, spans.map(([from, to]) => a1(sheet, `A${from}:${last}${to}`)))
  const cells = new Map<number, string[]>()
  spans.forEach(([from, to], index) => {
    for (let row = from; row <= to; row++) cells.set(row, read[index]![row - from] ?? [])
  })
  return cells
}

/** A row as the push leaves it: `original` null for a new one, `leads` the results it carries. */
interface Target {
  row: number | null
  original: string[] | null
  cells: string[]
  leads: number[]
}

function valuesIn(cells: string[], layout: Layout): CrmValues {
  const values: CrmValues = {}
  for (const [field, index] of layout.fields) if (cells[index]?.trim()) values[field] = cells[index]
  return values
}

/** Writes the record's values into the row's cells; a salesperson's emails in the Emails cell are kept. */
function apply(record: CrmRecord, mapping: CrmMapping, target: Target, layout: Layout): void {
  for (const [field, value] of Object.entries(valuesToWrite(record, mapping, valuesIn(target.cells, layout)))) {
    const index = layout.fields.get(field as CrmField)
    if (index !== undefined) target.cells[index] = value
  }
  if (layout.emails === null || !record.contacts.length) return
  const listed = (target.cells[layout.emails] ?? '').split(/[\s,;]+/).filter(Boolean)
  const known = new Set(listed.map((email) => email.toLowerCase()))
  target.cells[layout.emails] = [...listed, ...record.contacts.map((contact) => contact.email).filter((email) => !known.has(email))].join(', ')
}

const same = (a: string[], b: string[]) => Array.from({ length: Math.max(a.length, b.length) }, (_, index) => index).every((index) => (a[index] ?? '') === (b[index] ?? ''))

/** Each record onto its row (found by any alias, or made once per batch), with its outcome. */
function plan(records: readonly CrmRecord[], mapping: CrmMapping, state: SheetState, rows: Map<number, string[]>) {
  const results: CrmRowResult[] = []
  const targets: Target[] = []
  const byKey = new Map<string, Target>()
  const byRow = new Map<number, Target>()
  records.forEach((record, index) => {
    const keys = candidates(record)
    let target = keys.map((key) => byKey.get(key)).find(Boolean)
    const isNew = !target && keys.every((key) => !state.keys.has(key))
    if (!target) {
      const row = keys.map((key) => state.keys.get(key)).find((found) => found !== undefined)
      const cells = row === undefined ? [record.key] : Array.from({ length: state.layout.width }, (_, cell) => rows.get(row)?.[cell] ?? '')
      target = (row !== undefined && byRow.get(row)) || { row: row ?? null, original: row === undefined ? null : [...cells], cells, leads: [] }
      if (!targets.includes(target)) targets.push(target)
      if (row !== undefined) byRow.set(row, target)
    }
    for (const key of keys) if (!byKey.has(key)) byKey.set(key, target)
    const before = [...target.cells]
    apply(record, mapping, target, state.layout)
    target.leads.push(index)
    const outcome = isNew ? 'created' : same(before, target.cells) ? 'skipped' : 'updated'
    results.push({ leadId: record.leadId, outcome, remoteId: target.cells[0] ?? record.key, reason: null })
  })
  return { results, targets }
}

/** The changed cells of an existing row, as runs of neighbours: a cell nobody changed (a salesperson's formula) is never rewritten. */
function changedRuns(target: Target): [number, number][] {
  const runs: [number, number][] = []
  target.cells.forEach((cell, index) => {
    if (cell === (target.original?.[index] ?? '')) return
    const last = runs.at(-1)
    if (last && last[1] === index - 1) last[1] = index
    else runs.push([index, index])
  })
  return runs
}

/** A write Google refuses fails the rows it carried (a new row then has no remote id), not the batch. */
async function failing(targets: Target[], results: CrmRowResult[], write: () => Promise<void>): Promise<void> {
  try {
    await write()
  } catch (error) {
    if (!(error instanceof SheetsRefused)) throw error
    for (const target of targets) {
      for (const index of target.leads) results[index] = { ...results[index]!, outcome: 'failed', remoteId: target.row === null ? null : results[index]!.remoteId, reason: error.message }
    }
  }
}

async function write(call: Call, id: string, sheet: string, width: number, targets: Target[], results: CrmRowResult[]): Promise<void> {
  const updates = targets.filter((target) => target.row !== null && changedRuns(target).length)
  const data = updates.flatMap((target) =>
    changedRuns(target).map(([from, to]) => ({ range: a1(sheet, `${column(from)}${target.row}:${column(to)}${target.row}`), majorDimension: 'ROWS', values: [target.cells.slice(from, to + 1)] })),
  )
  // Updates before appends: inserting rows below the table could move a row that column A placed.
  if (data.length) await failing(updates, results, async () => void (await call({ method: 'POST', path: `${spreadsheetPath(id)}/values:batchUpdate`, body: { valueInputOption: 'RAW', data } })))
  const appends = targets.filter((target) => target.row === null)
  if (!appends.length) return
  const values = appends.map((target) => Array.from({ length: width }, (_, index) => target.cells[index] ?? ''))
  const query = { valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS' }
  await failing(appends, results, async () => void (await call({ method: 'POST', path: `${valuesPath(id, a1(sheet, 'A1'))}:append`, query, body: { majorDimension: 'ROWS', values } })))
}

function createAdapter(context: AdapterContext): CrmAdapter {
  const account = readServiceAccount(context.secret)
  const call = caller(context, account)
  const tab = async (id: string, settings: ConnectionSettings) => settings.sheetName ?? (await sheetTitles(call, id))[0] ?? 'Sheet1'
  return {
    batchSize: 500,
    async test(settings): Promise<TestOutcome> {
      const id = spreadsheetIdOf(settings)
      if (!account) return { ok: false, reason: 'invalid_secret' }
      if (!id) return { ok: false, reason: NO_SPREADSHEET }
      try {
        const body = (await call({ path: spreadsheetPath(id), query: { fields: 'properties.title' } })) as { properties?: { title?: unknown } } | null
        return { ok: true, account: typeof body?.properties?.title === 'string' ? body.properties.title : id }
      } catch (error) {
        if (error instanceof CrmAuthError || error instanceof SheetsRefused) return { ok: false, reason: error.message }
        throw error
      }
    },
    async prepare(settings) {
      const id = spreadsheetIdOf(settings)
      if (!id) throw new Error(NO_SPREADSHEET)
      const titles = await sheetTitles(call, id)
      const sheetName = settings.sheetName ?? titles[0]
      if (!sheetName || !titles.includes(sheetName)) throw new Error(`sheet_missing: the spreadsheet has no tab named "${sheetName ?? ''}"`)
      const [header] = await readRanges(call, id, [a1(sheetName, '1:1')])
      await ensureHeader(call, id, sheetName, header![0] ?? [])
      return { ...settings, spreadsheetId: id, sheetName }
    },
    async upsert(records, mapping, settings) {
      const id = spreadsheetIdOf(settings)
      if (!id) throw new Error(NO_SPREADSHEET)
      try {
        const sheet = await tab(id, settings)
        const state = await readSheet(call, id, sheet)
        const { results, targets } = plan(records, mapping, state, await readRows(call, id, sheet, state, records))
        await write(call, id, sheet, state.layout.width, targets, results)
        return results
      } catch (error) {
        if (!(error instanceof SheetsRefused)) throw error
        return records.map((record) => ({ leadId: record.leadId, outcome: 'failed' as const, remoteId: null, reason: error.message }))
      }
    },
  }
}

export const sheets: CrmProviderModule = {
  defaultBaseUrl: 'https://sheets.googleapis.com',
  // Sheets API: 60 read and 60 write requests per minute per user per project; one budget for both stays under either.
  budgets: [{ limit: 60, windowMs: 60_000 }],
  checkSecret: (secret) => (readServiceAccount(secret) ? null : 'invalid_secret'),
  create: createAdapter,
}
