/**
 * A local Google for the Sheets push tests, the e2e suite and the bench, on one loopback port: the OAuth token
 * endpoint of a service account (POST /token, the JWT bearer grant, its RS256 signature checked with the account's
 * public key, its claims checked as Google does) and the Sheets API v4 on one spreadsheet with one tab. The API
 * checks the bearer token and whether the spreadsheet is shared with the token's account, answers Google's error
 * shape `{ error: { code, message, status } }`, parses A1 ranges (a tab name with spaces or quotes must be quoted),
 * stores RAW values as text and evaluates USER_ENTERED ones the way Sheets would (`=…` becomes a formula's result),
 * and answers 429 RESOURCE_EXHAUSTED with Retry-After past the write rate. node:http only, 127.0.0.1, a free port.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeGoogleOptions {
  clientEmail?: string
  /** The service account's public key (PEM); without it the fake makes a key pair and offers `serviceAccount`. */
  publicKeyPem?: string
  spreadsheetId?: string
  title?: string
  sheetTitle?: string
  /** Write requests accepted per rolling minute (Sheets: 60 per user; default 60). */
  writesPerMinute?: number
}

interface FakeGoogleRequest {
  method: string
  /** The raw path, before percent-decoding. */
  path: string
  query: URLSearchParams
  body: any
  headers: http.IncomingHttpHeaders
  status?: number
}

export interface FakeGoogle {
  /** Serves both /token and /v4/…. */
  url: string
  tokenUrl: string
  spreadsheetId: string
  sheetTitle: string
  /** The tab, row-major (rows[0] is row 1). Tests edit it to play a user typing in the sheet. */
  rows: string[][]
  /** The accounts the spreadsheet is shared with (default: the service account). */
  sharedWith: Set<string>
  /** A service-account JSON key the token endpoint accepts, when the fake made the key pair itself. */
  serviceAccount: string | null
  requests: FakeGoogleRequest[]
  tokenRequests(): number
  /** The next API request (not /token) is answered with this instead. */
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void
  /** Every token issued so far stops working (401). */
  revokeTokens(): void
  close(): Promise<void>
}

interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets'
const STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED' }
const failure = (code: number, message: string, headers?: Record<string, string>): Answer => ({ status: code, body: { error: { code, message, status: STATUS[code] } }, headers })
const oauthError = (error: string, description: string): Answer => ({ status: 400, body: { error, error_description: description } })

const letters = (index: number): string => {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}
const columnIndex = (name: string) => [...name.toUpperCase()].reduce((total, char) => total * 26 + char.charCodeAt(0) - 64, 0) - 1

/** 0-based, inclusive; Infinity where the range is open. */
interface Grid {
  r0: number
  c0: number
  r1: number
  c1: number
}

function parseCell(text: string): { row: number | null; col: number | null } | null {
  const match = /^([A-Za-z]{0,3})(\d*)$/.exec(text)
  if (!match || (!match[1] && !match[2])) return null
  return { col: match[1] ? columnIndex(match[1]) : null, row: match[2] ? Number(match[2]) - 1 : null }
}

/** A1 notation on our one tab; `single` for a lone cell (a write's top-left corner). */
function parseRange(range: string, sheetTitle: string): { grid: Grid; single: boolean } | null {
  const bang = range.lastIndexOf('!')
  const sheetPart = bang < 0 ? range : range.slice(0, bang)
  const cells = bang < 0 ? '' : range.slice(bang + 1)
  const quoted = /^'(.*)'$/s.exec(sheetPart)
  const name = quoted ? quoted[1]!.replaceAll("''", "'") : sheetPart
  if (!quoted && !/^[\w.]+$/.test(sheetPart)) return null
  if (name !== sheetTitle) return null
  if (!cells) return { grid: { r0: 0, c0: 0, r1: Infinity, c1: Infinity }, single: false }
  const [from, to, extra] = cells.split(':')
  const start = parseCell(from!)
  const end = to === undefined ? start : parseCell(to)
  if (!start || !end || extra !== undefined) return null
  const grid = { r0: start.row ?? 0, c0: start.col ?? 0, r1: end.row ?? Infinity, c1: end.col ?? Infinity }
  return grid.r1 < grid.r0 || grid.c1 < grid.c0 ? null : { grid, single: to === undefined }
}

class Sheet {
  constructor(
    readonly rows: string[][],
    readonly title: string,
  ) {}

  get quotedTitle(): string {
    return /^\w+$/.test(this.title) ? this.title : `'${this.title.replaceAll("'", "''")}'`
  }

  a1(grid: Grid): string {
    const lastRow = Math.max(1000, this.rows.length)
    return `${this.quotedTitle}!${letters(grid.c0)}${grid.r0 + 1}:${letters(Math.min(grid.c1, 25))}${Math.min(grid.r1, lastRow - 1) + 1}`
  }

  read(grid: Grid): string[][] {
    const out: string[][] = []
    for (let row = grid.r0; row <= Math.min(grid.r1, this.rows.length - 1); row++) {
      const cells = (this.rows[row] ?? []).slice(grid.c0, grid.c1 === Infinity ? undefined : grid.c1 + 1)
      while (cells.length && cells.at(-1) === '') cells.pop()
      out.push(cells)
    }
    while (out.length && !out.at(-1)!.length) out.pop()
    return out
  }

  write(grid: Grid, values: unknown[][], userEntered: boolean): void {
    values.forEach((cells, offset) => {
      const row = grid.r0 + offset
      while (this.rows.length <= row) this.rows.push([])
      const target = this.rows[row]!
      cells.forEach((value, column) => {
        if (value === null || value === undefined) return
        while (target.length <= grid.c0 + column) target.push('')
        target[grid.c0 + column] = userEntered ? evaluate(value) : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value)
      })
    })
  }

  /** The row after the table's last one (Sheets looks for the table from the range; one table here). */
  appendRow(): number {
    for (let row = this.rows.length - 1; row >= 0; row--) if (this.rows[row]!.some((cell) => cell !== '')) return row + 1
    return 0
  }
}

/** What Sheets makes of a typed value: a formula is computed (here: its error), a number loses its leading zeros. */
function evaluate(value: unknown): string {
  const text = String(value)
  if (text.startsWith('=')) return '#NAME?'
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) return String(Number(text))
  return text
}

function fits(grid: Grid, single: boolean, values: unknown[][]): boolean {
  if (single) return true
  return values.length <= grid.r1 - grid.r0 + 1 && values.every((row) => row.length <= grid.c1 - grid.c0 + 1)
}

/** `fields` as a partial-response mask (`properties.title`, `sheets.properties`). */
function mask(value: unknown, fields: string | null): unknown {
  if (!fields) return value
  const pick = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => pick(item, path))
    if (!path.length || node === null || typeof node !== 'object') return node
    const [head, ...rest] = path
    return head! in node ? { [head!]: pick((node as Record<string, unknown>)[head!], rest) } : {}
  }
  const merge = (a: any, b: any): any => {
    if (Array.isArray(a) && Array.isArray(b)) return a.map((item, index) => merge(item, b[index]))
    if (a && b && typeof a === 'object' && typeof b === 'object') return Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((key) => [key, key in a && key in b ? merge(a[key], b[key]) : (a[key] ?? b[key])]))
    return b ?? a
  }
  return fields.split(',').reduce((out: unknown, field) => merge(out, pick(value, field.trim().split('.'))), {})
}

/** Checks a service account's assertion as Google's token endpoint does; the reason when refused. */
function verifyAssertion(assertion: string, publicKey: crypto.KeyObject, clientEmail: string, audience: string): string | null {
  const [header, claims, signature, extra] = assertion.split('.')
  if (!header || !claims || !signature || extra !== undefined) return 'Invalid JWT: not a signed JWT.'
  const json = (part: string) => {
    try {
      return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
    } catch {
      return null
    }
  }
  if (json(header)?.alg !== 'RS256') return 'Invalid JWT: alg must be RS256.'
  if (!crypto.verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))) return 'Invalid JWT Signature.'
  const claimSet = json(claims)
  const now = Math.floor(Date.now() / 1000)
  if (!claimSet || claimSet.iss !== clientEmail) return 'Invalid email or User ID'
  if (claimSet.aud !== audience) return `Invalid JWT: aud must be ${audience}.`
  if (typeof claimSet.scope !== 'string' || !claimSet.scope.split(' ').includes(SCOPE)) return 'Invalid OAuth scope or ID token audience provided.'
  const iat = Number(claimSet.iat)
  const exp = Number(claimSet.exp)
  if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.'
  }
  return null
}

function readText(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

function send(response: http.ServerResponse, answer: Answer): void {
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body)
  response.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json; charset=UTF-8' } : {}), ...answer.headers })
  response.end(text)
}

interface Context {
  sheet: Sheet
  spreadsheetId: string
  title: string
  query: URLSearchParams
  body: any
}

function valuesGet(context: Context, range: string): Answer {
  const parsed = parseRange(range, context.sheet.title)
  if (!parsed) return failure(400, `Unable to parse range: ${range}`)
  const grid = parsed.single ? { ...parsed.grid, r1: parsed.grid.r0, c1: parsed.grid.c0 } : parsed.grid
  const values = context.sheet.read(grid)
  return { status: 200, body: { range: context.sheet.a1(grid), majorDimension: 'ROWS', ...(values.length ? { values } : {}) } }
}

function inputOption(value: unknown): Answer | 'RAW' | 'USER_ENTERED' {
  if (value === 'RAW' || value === 'USER_ENTERED') return value
  if (value === undefined || value === null || value === '') return failure(400, "'valueInputOption' is required but not specified")
  return failure(400, `Invalid value at 'value_input_option' (${String(value)})`)
}

function updated(context: Context, grid: Grid, values: unknown[][]) {
  const columns = Math.max(0, ...values.map((row) => row.length))
  const range = context.sheet.a1({ r0: grid.r0, c0: grid.c0, r1: grid.r0 + Math.max(values.length, 1) - 1, c1: grid.c0 + Math.max(columns, 1) - 1 })
  return { spreadsheetId: context.spreadsheetId, updatedRange: range, updatedRows: values.length, updatedColumns: columns, updatedCells: values.reduce((total, row) => total + row.length, 0) }
}

/** values.update and each of values.batchUpdate's: parsed and checked before anything is written. */
function prepareWrite(context: Context, range: string, values: unknown): Answer | { grid: Grid; values: unknown[][] } {
  const parsed = parseRange(range, context.sheet.title)
  if (!parsed) return failure(400, `Unable to parse range: ${range}`)
  if (!Array.isArray(values) || !values.every(Array.isArray)) return failure(400, "Invalid value at 'data.values'")
  if (!fits(parsed.grid, parsed.single, values)) return failure(400, `Requested writing within range [${range}], but tried writing beyond it.`)
  return { grid: parsed.grid, values }
}

function valuesUpdate(context: Context, range: string): Answer {
  const option = inputOption(context.query.get('valueInputOption'))
  if (typeof option !== 'string') return option
  if (context.body?.range && context.body.range !== range) return failure(400, `Requested range [${range}] does not match the body's [${context.body.range}]`)
  const write = prepareWrite(context, range, context.body?.values)
  if ('status' in write) return write
  context.sheet.write(write.grid, write.values, option === 'USER_ENTERED')
  return { status: 200, body: updated(context, write.grid, write.values) }
}

function valuesBatchUpdate(context: Context): Answer {
  const option = inputOption(context.body?.valueInputOption)
  if (typeof option !== 'string') return option
  const data: { range?: unknown; values?: unknown }[] = Array.isArray(context.body?.data) ? context.body.data : []
  const writes = data.map((entry) => prepareWrite(context, String(entry.range ?? ''), entry.values))
  const refused = writes.find((write) => 'status' in write)
  if (refused && 'status' in refused) return refused
  const responses = writes.map((write) => {
    const { grid, values } = write as { grid: Grid; values: unknown[][] }
    context.sheet.write(grid, values, option === 'USER_ENTERED')
    return updated(context, grid, values)
  })
  const total = (key: 'updatedRows' | 'updatedColumns' | 'updatedCells') => responses.reduce((sum, response) => sum + response[key], 0)
  return {
    status: 200,
    body: { spreadsheetId: context.spreadsheetId, totalUpdatedRows: total('updatedRows'), totalUpdatedColumns: total('updatedColumns'), totalUpdatedCells: total('updatedCells'), totalUpdatedSheets: responses.length ? 1 : 0, responses },
  }
}

function valuesAppend(context: Context, range: string): Answer {
  const option = inputOption(context.query.get('valueInputOption'))
  if (typeof option !== 'string') return option
  const insert = context.query.get('insertDataOption') ?? 'OVERWRITE'
  if (insert !== 'OVERWRITE' && insert !== 'INSERT_ROWS') return failure(400, `Invalid value at 'insert_data_option' (${insert})`)
  const parsed = parseRange(range, context.sheet.title)
  if (!parsed) return failure(400, `Unable to parse range: ${range}`)
  const values = context.body?.values
  if (!Array.isArray(values) || !values.every(Array.isArray)) return failure(400, "Invalid value at 'values'")
  const start = Math.max(context.sheet.appendRow(), parsed.grid.r0)
  const tableRange = start > 0 ? context.sheet.a1({ r0: 0, c0: parsed.grid.c0, r1: start - 1, c1: 25 }) : undefined
  const grid = { r0: start, c0: parsed.grid.c0, r1: Infinity, c1: Infinity }
  if (insert === 'INSERT_ROWS') context.sheet.rows.splice(start, 0, ...values.map(() => [] as string[]))
  context.sheet.write(grid, values, option === 'USER_ENTERED')
  return { status: 200, body: { spreadsheetId: context.spreadsheetId, ...(tableRange ? { tableRange } : {}), updates: updated(context, grid, values) } }
}

function spreadsheetGet(context: Context): Answer {
  const full = {
    spreadsheetId: context.spreadsheetId,
    properties: { title: context.title, locale: 'fr_FR', timeZone: 'Europe/Paris' },
    sheets: [{ properties: { sheetId: 0, title: context.sheet.title, index: 0, sheetType: 'GRID', gridProperties: { rowCount: Math.max(1000, context.sheet.rows.length), columnCount: 26 } } }],
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${context.spreadsheetId}/edit`,
  }
  return { status: 200, body: mask(full, context.query.get('fields')) }
}

const WRITES = new Set(['values:batchUpdate', 'PUT values', 'POST values:append'])

/** The operation a /v4 path names, and its range when it has one. */
function operation(method: string, rest: string): { name: string; range?: string } | null {
  if (rest === '' && method === 'GET') return { name: 'get' }
  if (rest === '/values:batchGet' && method === 'GET') return { name: 'values:batchGet' }
  if (rest === '/values:batchUpdate' && method === 'POST') return { name: 'values:batchUpdate' }
  const match = /^\/values\/(.+?)(:append)?$/.exec(rest)
  if (!match) return null
  const range = decodeURIComponent(match[1]!)
  if (match[2]) return method === 'POST' ? { name: 'POST values:append', range } : null
  return method === 'GET' || method === 'PUT' ? { name: `${method} values`, range } : null
}

function runOperation(context: Context, op: { name: string; range?: string }): Answer {
  switch (op.name) {
    case 'get':
      return spreadsheetGet(context)
    case 'values:batchGet': {
      const valueRanges = context.query.getAll('ranges').map((range) => valuesGet(context, range))
      const refused = valueRanges.find((answer) => answer.status !== 200)
      return refused ?? { status: 200, body: { spreadsheetId: context.spreadsheetId, valueRanges: valueRanges.map((answer) => answer.body) } }
    }
    case 'values:batchUpdate':
      return valuesBatchUpdate(context)
    case 'GET values':
      return valuesGet(context, op.range!)
    case 'PUT values':
      return valuesUpdate(context, op.range!)
    default:
      return valuesAppend(context, op.range!)
  }
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const clientEmail = options.clientEmail ?? 'leadatlas-push@leadatlas-test.iam.gserviceaccount.com'
  const spreadsheetId = options.spreadsheetId ?? '1FakeSpreadsheetId_0123456789abcdefghijklmnop'
  const title = options.title ?? 'Prospects LeadAtlas'
  const writesPerMinute = options.writesPerMinute ?? 60
  const pair = options.publicKeyPem ? null : crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const publicKey = pair ? pair.publicKey : crypto.createPublicKey(options.publicKeyPem!)
  const sheet = new Sheet([], options.sheetTitle ?? 'Feuille 1')
  const sharedWith = new Set([clientEmail])
  const tokens = new Map<string, string>()
  const requests: FakeGoogleRequest[] = []
  const failures: Answer[] = []
  const writes: number[] = []
  let url = ''
  let tokenCount = 0

  function token(body: string): Answer {
    tokenCount++
    const form = new URLSearchParams(body)
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return oauthError('unsupported_grant_type', `Invalid grant_type: ${form.get('grant_type') ?? ''}`)
    const refused = verifyAssertion(form.get('assertion') ?? '', publicKey, clientEmail, `${url}/token`)
    if (refused) return oauthError('invalid_grant', refused)
    const accessToken = `ya29.fake-${crypto.randomBytes(16).toString('hex')}`
    tokens.set(accessToken, clientEmail)
    return { status: 200, body: { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' } }
  }

  function api(method: string, path: string, query: URLSearchParams, body: any, authorization: string | undefined): Answer {
    const next = failures.shift()
    if (next) return next
    const caller = tokens.get(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '')
    if (!caller) {
      return failure(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.')
    }
    const match = /^\/v4\/spreadsheets\/([^/]+?)(\/.*)?$/.exec(path)
    const op = match ? operation(method, match[2] ?? '') : null
    if (!match || !op) return failure(404, `No route ${method} ${path}`)
    if (decodeURIComponent(match[1]!) !== spreadsheetId) return failure(404, 'Requested entity was not found.')
    if (!sharedWith.has(caller)) return failure(403, 'The caller does not have permission')
    if (WRITES.has(op.name)) {
      const now = Date.now()
      while (writes.length && writes[0]! <= now - 60_000) writes.shift()
      if (writes.length >= writesPerMinute) {
        const retryAfter = String(Math.max(1, Math.ceil((writes[0]! + 60_000 - now) / 1000)))
        const message = "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'."
        return failure(429, message, { 'retry-after': retryAfter })
      }
      writes.push(now)
    }
    return runOperation({ sheet, spreadsheetId, title, query, body }, op)
  }

  const server = http.createServer(async (request, response) => {
    const [path = '/', search = ''] = (request.url ?? '/').split('?')
    const query = new URLSearchParams(search)
    const text = await readText(request)
    let body: any = text
    if (path !== '/token' && text) {
      try {
        body = JSON.parse(text)
      } catch {
        return send(response, failure(400, 'Invalid JSON payload received.'))
      }
    }
    const logged: FakeGoogleRequest = { method: request.method ?? 'GET', path, query, body, headers: request.headers }
    requests.push(logged)
    const answer = path === '/token' && request.method === 'POST' ? token(text) : api(logged.method, path, query, body, request.headers.authorization)
    logged.status = answer.status
    send(response, answer)
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const serviceAccount = pair
    ? JSON.stringify({
        type: 'service_account',
        project_id: 'leadatlas-test',
        private_key_id: crypto.randomBytes(20).toString('hex'),
        private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: clientEmail,
        client_id: '100000000000000000001',
        token_uri: 'https://oauth2.googleapis.com/token',
      })
    : null
  return {
    url,
    tokenUrl: `${url}/token`,
    spreadsheetId,
    sheetTitle: sheet.title,
    rows: sheet.rows,
    sharedWith,
    serviceAccount,
    requests,
    tokenRequests: () => tokenCount,
    failNext: (status, body, headers) => void failures.push({ status, body: body ?? { error: { code: status, message: `HTTP ${status}`, status: STATUS[status] ?? 'UNKNOWN' } }, headers }),
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
