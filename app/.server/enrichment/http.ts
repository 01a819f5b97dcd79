/**
 * The crawler's HTTP client: every byte goes through the SSRF guard (ssrf.ts), a per-host politeness limit, a deadline
 * and a size cap.
 *
 * - Politeness holds for every process of a deployment: a request waits for a slot of its site in this process
 *   (in memory), then for one of the site's slots across processes (a lease in Postgres, app/.server/limits/).
 *
 * - One undici Agent whose `connect` resolves the hostname itself, vets every answer, and opens the socket to the
 *   vetted IP (TLS still verifies the certificate for the original name). DNS rebinding therefore cannot redirect a
 *   connection to an address that was not checked.
 * - Redirects are followed by hand (max 5), each hop re-vetted and re-checked by the caller's `beforeHop` (robots.txt).
 * - Bodies are decompressed by us (gzip, deflate, br) and the cap applies to the decompressed bytes (no zip bombs).
 */
import net from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { Agent, buildConnector, request } from 'undici'
import { KeyedSemaphore } from './limits.ts'
import type { ConcurrencyLimiter, ReleaseLease } from '#app/.server/limits/leases.ts'
import { GuardError, type HostAllowList, type LookupFn, defaultPort, normalizeHostname, resolveVetted, vetUrl } from './ssrf.ts'

export type FetchErrorCode =
  | 'timeout'
  | 'connection_refused'
  | 'dns_error'
  | 'network_error'
  | 'too_many_redirects'
  | 'invalid_redirect'
  | 'blocked_address'
  | 'blocked_port'
  | 'blocked_scheme'
  | 'invalid_url'

export class FetchError extends Error {
  override name = 'FetchError'
  readonly code: FetchErrorCode
  /** A kept-alive connection closed under us (reset): worth one immediate retry, GET being idempotent. */
  readonly connectionReset: boolean
  constructor(code: FetchErrorCode, message: string, options?: { cause?: unknown; connectionReset?: boolean }) {
    super(message, options)
    this.code = code
    this.connectionReset = options?.connectionReset ?? false
  }
}

export interface HttpResponse {
  /** URL of this response (the last hop when redirects were followed). */
  url: string
  status: number
  /** Lower-case names; set-cookie stays a list. */
  headers: Record<string, string | string[]>
  body: Buffer
  /** The body was longer than the cap and was cut. */
  truncated: boolean
  /** Every URL requested, first to last. */
  hops: string[]
}

export interface GuardedHttpOptions {
  allowList: HostAllowList
  lookup: LookupFn
  timeoutMs: number
  maxBytes: number
  userAgent: string
  /** Max in-flight requests for a site (hostLimitKey). */
  perHostLimit: (host: string) => number
  /** The same limit across processes; asked at each request (null: this process only). */
  sharedHosts?: () => ConcurrencyLimiter | null
  maxRedirects?: number
}

export interface GetOptions {
  signal?: AbortSignal
  accept?: string
  maxBytes?: number
  /** Called before each hop (first URL included); throw to stop. */
  beforeHop?: (url: URL) => Promise<void>
  /**
   * Called with each answer that is not a redirect; a sink it returns receives the body as it arrives, up to
   * `scanBytes`, and nothing is kept (`body` is empty): the caller parses while reading, in bounded memory.
   */
  stream?: (answer: { url: string; status: number; headers: Record<string, string | string[]> }) => BodySink | null
  /** The cap when the body goes to a sink. */
  scanBytes?: number
}

type BodySink = (chunk: Buffer) => void

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * "hostname:port" without a leading www., the politeness key: www.example.fr and example.fr are one server (and two
 * sites on one host:port share it).
 */
export function hostLimitKey(url: URL): string {
  return `${normalizeHostname(url.hostname).replace(/^www\./, '')}:${url.port ? Number(url.port) : defaultPort(url.protocol)}`
}

/**
 * An undici connector that resolves the hostname itself, vets every answer (ssrf.ts) and opens the socket to the
 * vetted address (TLS still verifies the certificate for the name): what the crawler and webhook deliveries connect
 * through, so a DNS answer that changes after a check (rebinding) cannot reach an address that was not vetted.
 */
export function guardedConnector(allowList: HostAllowList, lookup: LookupFn, timeoutMs: number): buildConnector.connector {
  const inner = buildConnector({ timeout: timeoutMs })
  return (opts, callback) => {
    const hostname = normalizeHostname(opts.hostname)
    const port = opts.port ? Number(opts.port) : defaultPort(opts.protocol)
    resolveVetted(hostname, port, allowList, lookup).then(
      (addresses) => {
        const target = addresses[0] as { address: string }
        inner({ ...opts, hostname: target.address, servername: opts.servername || (net.isIP(hostname) ? undefined : hostname) }, callback)
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    )
  }
}

export class GuardedHttp {
  readonly hosts: KeyedSemaphore
  private readonly agent: Agent
  private closed = false

  constructor(private readonly options: GuardedHttpOptions) {
    this.hosts = new KeyedSemaphore(options.perHostLimit)
    this.agent = new Agent({
      connect: guardedConnector(options.allowList, options.lookup, options.timeoutMs),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
      // No connection cap here: the per-host semaphore is the limit (a cap below it would silently lower it).
      connections: null,
      maxResponseSize: -1,
    })
  }

  /** GET with manual redirects. Errors are FetchError (or the caller's abort reason). */
  async get(input: string | URL, options: GetOptions = {}): Promise<HttpResponse> {
    const maxRedirects = this.options.maxRedirects ?? 5
    const hops: string[] = []
    let url = this.vet(input)
    for (;;) {
      hops.push(url.href)
      await options.beforeHop?.(url)
      let response: Omit<HttpResponse, 'hops'>
      try {
        response = await this.getOnce(url, options)
      } catch (error) {
        if (!(error instanceof FetchError && error.connectionReset)) throw error
        response = await this.getOnce(url, options)
      }
      const location = REDIRECT_STATUSES.has(response.status) ? headerValue(response.headers, 'location') : undefined
      if (!location) return { ...response, hops }
      if (hops.length > maxRedirects) throw new FetchError('too_many_redirects', `more than ${maxRedirects} redirects from ${hops[0]}`)
      let next: URL
      try {
        next = new URL(location, url)
      } catch {
        throw new FetchError('invalid_redirect', `unreadable redirect to ${location.slice(0, 200)}`)
      }
      url = this.vet(next)
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.agent.close().catch(() => this.agent.destroy())
  }

  private vet(input: string | URL): URL {
    try {
      return vetUrl(input, this.options.allowList).url
    } catch (error) {
      if (error instanceof GuardError) throw new FetchError(error.code, error.message)
      throw error
    }
  }

  /** One request, one response; the politeness slot is held until the body is read. */
  private async getOnce(url: URL, options: GetOptions): Promise<Omit<HttpResponse, 'hops'>> {
    if (this.closed) throw new FetchError('network_error', 'crawler closed')
    const { signal } = options
    const key = hostLimitKey(url)
    const release = await this.hosts.acquire(key, signal)
    let lease: ReleaseLease | undefined
    try {
      lease = await this.options.sharedHosts?.()?.acquire(`site:${key}`, this.options.perHostLimit(key), signal)
    } catch (error) {
      release()
      if (signal?.aborted) throw signal.reason
      throw new FetchError('network_error', `the politeness limit of ${url.host} could not be checked: ${(error as Error).message}`, { cause: error })
    }
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(new FetchError('timeout', `no complete answer from ${url.host} within ${this.options.timeoutMs} ms`)), this.options.timeoutMs)
    const onAbort = () => deadline.abort(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: 'GET',
        signal: deadline.signal,
        headers: {
          'user-agent': this.options.userAgent,
          accept: options.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          'accept-language': 'fr,en;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
        },
      })
      const headers = lowerHeaders(response.headers)
      // Destroying an unread undici body emits RequestAbortedError: expected here, never an unhandled 'error'.
      response.body.on('error', () => undefined)
      if (REDIRECT_STATUSES.has(response.statusCode)) {
        response.body.destroy()
        return { url: url.href, status: response.statusCode, headers, body: Buffer.alloc(0), truncated: false }
      }
      const sink = options.stream?.({ url: url.href, status: response.statusCode, headers }) ?? null
      const cap = sink ? (options.scanBytes ?? this.options.maxBytes) : (options.maxBytes ?? this.options.maxBytes)
      const { body, truncated } = await readCapped(response.body, headerValue(headers, 'content-encoding'), cap, sink)
      if (deadline.signal.aborted) throw deadline.signal.reason
      return { url: url.href, status: response.statusCode, headers, body, truncated }
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (deadline.signal.aborted && deadline.signal.reason instanceof FetchError) throw deadline.signal.reason
      throw toFetchError(error, url)
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      lease?.()
      release()
    }
  }
}

function lowerHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name.toLowerCase()] = value
  return out
}

export function headerValue(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip()
    case 'deflate':
      return zlib.createInflate()
    case 'br':
      return zlib.createBrotliDecompress()
    default:
      return null
  }
}

/** Reads at most `maxBytes` (after decompression), then stops the transfer; into `sink` when given, else kept. */
async function readCapped(body: Readable, encoding: string | undefined, maxBytes: number, sink: BodySink | null): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  const decoder = decoderFor(encoding)
  const source: Readable = decoder ? (decoder as unknown as Readable) : body
  const piping = decoder ? pipeline(body, decoder as unknown as NodeJS.WritableStream).catch(() => undefined) : null
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer
      const piece = size + buffer.length > maxBytes ? buffer.subarray(0, maxBytes - size) : buffer
      if (sink) sink(piece)
      else chunks.push(piece)
      size += piece.length
      if (piece !== buffer) {
        truncated = true
        break
      }
    }
  } catch (error) {
    // A corrupt compressed stream after some data: keep what was decoded. Anything else is the caller's problem.
    if (!(decoder && size > 0)) throw error
  } finally {
    if (truncated || !body.readableEnded) body.destroy()
    if (decoder) (decoder as unknown as Readable).destroy()
    await piping
  }
  return { body: sink ? Buffer.alloc(0) : Buffer.concat(chunks, size), truncated }
}

export function toFetchError(error: unknown, url: URL): FetchError {
  if (error instanceof FetchError) return error
  if (error instanceof GuardError) return new FetchError(error.code, error.message)
  const code = (error as { code?: string }).code ?? ''
  const message = `${url.host}: ${(error as Error)?.message ?? String(error)}`
  switch (code) {
    case 'ECONNREFUSED':
      return new FetchError('connection_refused', message, { cause: error })
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return new FetchError('dns_error', message, { cause: error })
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new FetchError('timeout', message, { cause: error })
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return new FetchError('network_error', message, { cause: error, connectionReset: true })
    default: {
      const cause = (error as { cause?: unknown }).cause
      if (cause instanceof GuardError) return new FetchError(cause.code, cause.message)
      return new FetchError('network_error', message, { cause: error })
    }
  }
}
