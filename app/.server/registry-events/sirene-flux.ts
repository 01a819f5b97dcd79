/**
 * The INSEE Sirene API 3.11 daily flux: every establishment processed on a day,
 * `GET {INSEE_API_URL}/siret?q=dateDernierTraitementEtablissement:<day>&nombre=1000&curseur=<c>`, with the key in
 * `X-INSEE-Api-Key-Integration` (docs/registry-events-sources.md §5). Pages are yielded one at a time so the import
 * stores each and saves its cursor before asking the next: a crash resumes at the last saved cursor.
 *
 * Also the HTTP helpers both registry-event clients share: a pause between calls (INSEE allows 30 a minute) and
 * retries with backoff on 429 (after its Retry-After), 502, 503, 504 and network errors.
 */
import { setTimeout as sleepFor } from 'node:timers/promises'

export interface HttpOptions {
  fetch?: typeof fetch
  /** Waits (pauses and backoffs); tests pass a fast one. */
  sleep?: (ms: number) => Promise<void>
  /** Tries after the first on a retryable answer. */
  retries?: number
  /** First backoff, doubled on each retry (Retry-After wins when the server sends one). */
  backoffMs?: number
  /** Per call. */
  timeoutMs?: number
  signal?: AbortSignal
}

/** An upstream answer that is not data and not worth retrying (or still failing after the retries). */
export class RegistryFetchError extends Error {
  constructor(message: string, readonly status: number | null) {
    super(message)
    this.name = 'RegistryFetchError'
  }
}

const RETRYABLE = new Set([429, 502, 503, 504])
/** A Retry-After longer than this is a quota for the day, not a pause: we give up and the next run retries. */
const LONGEST_RETRY_AFTER_MS = 5 * 60_000

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (!header) return null
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now())
}

/** fetch, retried with backoff while the answer is retryable. The last retryable answer is returned as it is. */
export async function fetchWithRetry(url: string, init: RequestInit, options: HttpOptions = {}): Promise<Response> {
  const { fetch: fetchImpl = fetch, sleep = (ms) => sleepFor(ms), retries = 4, backoffMs = 2_000, timeoutMs = 60_000, signal } = options
  for (let attempt = 0; ; attempt += 1) {
    const timeout = AbortSignal.timeout(timeoutMs)
    let response: Response | null = null
    try {
      response = await fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
    } catch (error) {
      // The caller's abort is final; a timeout or a dropped connection is worth another try.
      if (signal?.aborted || attempt >= retries) throw error
    }
    if (response && (!RETRYABLE.has(response.status) || attempt >= retries)) return response
    const wait = retryAfterMs(response?.headers.get('retry-after') ?? null) ?? backoffMs * 2 ** attempt
    if (wait > LONGEST_RETRY_AFTER_MS) return response!
    // Drop the unread body so the connection is reused.
    await response?.body?.cancel().catch(() => {})
    await sleep(wait)
  }
}

/** Spaces calls `pauseMs` apart, across every day an import runs (one pacer per import run). */
export type Pacer = () => Promise<void>

export function createPacer(pauseMs: number, sleep: (ms: number) => Promise<void> = (ms) => sleepFor(ms)): Pacer {
  let last = Number.NEGATIVE_INFINITY
  return async () => {
    const wait = last + pauseMs - Date.now()
    if (wait > 0) await sleep(wait)
    last = Date.now()
  }
}

export interface SireneFluxOptions extends HttpOptions {
  /** INSEE_API_URL, e.g. https://api.insee.fr/api-sirene/3.11 */
  baseUrl: string
  apiKey: string
  pacer: Pacer
  /** `nombre`: 1000 is the API's most. */
  pageSize?: number
}

export interface SirenePage {
  /** The cursor this page was asked with ("*" for the first). */
  cursor: string
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null
  /** `header.total`: establishments processed that day. */
  total: number
  /** `etablissements[]`, unread (readSireneEtablissement maps them). */
  etablissements: unknown[]
}

interface SireneHeader {
  statut?: number
  message?: string
  total?: number
  curseur?: string
  curseurSuivant?: string
}

async function readBody(response: Response): Promise<{ header?: SireneHeader; etablissements?: unknown[] } | null> {
  const text = await response.text()
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? parsed : null
  } catch {
    return null
  }
}

function fluxUrl(baseUrl: string, day: string, pageSize: number, cursor: string): string {
  const query = new URLSearchParams({ q: `dateDernierTraitementEtablissement:${day}`, nombre: String(pageSize), curseur: cursor })
  return `${baseUrl.replace(/\/+$/, '')}/siret?${query}`
}

/**
 * The day's establishments, page by page, from `fromCursor` (null: the first page). INSEE answers 404 (header.statut
 * 404) when nothing was processed that day, as on the 1st of each month: no page then. Any other failure throws a
 * RegistryFetchError naming the status and INSEE's message.
 */
export async function* sireneFluxPages(day: string, fromCursor: string | null, options: SireneFluxOptions): AsyncGenerator<SirenePage> {
  const pageSize = options.pageSize ?? 1000
  let cursor = fromCursor ?? '*'
  for (;;) {
    await options.pacer()
    const response = await fetchWithRetry(fluxUrl(options.baseUrl, day, pageSize, cursor), { headers: { 'X-INSEE-Api-Key-Integration': options.apiKey, Accept: 'application/json' } }, options)
    const body = await readBody(response)
    if (response.status === 404 && body?.header?.statut === 404) return
    if (!response.ok || !body || !Array.isArray(body.etablissements)) {
      const detail = body?.header?.message ?? (response.ok ? 'not a Sirene answer' : response.statusText)
      const hint = response.status === 401 || response.status === 403 ? ' (check INSEE_API_KEY)' : ''
      throw new RegistryFetchError(`INSEE Sirene flux of ${day}: HTTP ${response.status}${hint}: ${detail}`, response.status)
    }
    const next = body.header?.curseurSuivant
    // The last page says so by naming itself as the next one (or by naming none).
    const nextCursor = typeof next === 'string' && next !== '' && next !== (body.header?.curseur ?? cursor) ? next : null
    yield { cursor, nextCursor, total: Number(body.header?.total ?? body.etablissements.length), etablissements: body.etablissements }
    if (!nextCursor) return
    cursor = nextCursor
  }
}
