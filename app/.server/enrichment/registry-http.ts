/**
 * The registry API's HTTP side: one GET /search per call, the deployment-wide rate limit (app/.server/registry/
 * limiter.ts), Retry-After pauses for every process, exponential backoff on 5xx and network errors (see registry.ts).
 */
import { sleep } from './limits.ts'
import { parseRetryAfter } from '#app/utils/headers.ts'
import { getPool } from '#app/.server/db.ts'
import { createRegistryLimiter, registryLimiterKey, type RegistryClass, type RegistryLimiter } from '#app/.server/registry/limiter.ts'

export interface RegistryHttpOptions {
  /** Default https://recherche-entreprises.api.gouv.fr */
  baseUrl?: string
  /** Default 7 (the API's documented limit per IP); ignored when `limiter` is given. */
  requestsPerSecond?: number
  /** The shared budget; default: one on the app's database for this base URL's host. */
  limiter?: RegistryLimiter
  /** Whose share of the budget the requests use (default enrichment). */
  registryClass?: RegistryClass
  fetch?: typeof fetch
  /** Retries after the first attempt, default 3. */
  maxRetries?: number
  /** Per request, default 10 s. */
  timeoutMs?: number
  /** First backoff delay for 5xx/network errors, doubled each retry (default 500 ms). */
  retryBaseDelayMs?: number
  /** A Retry-After longer than this is not waited for: the lookup fails with retryAfterSeconds (default 60). */
  maxRetryAfterSeconds?: number
  userAgent?: string
}

export type RegistryAttempt =
  | { kind: 'ok'; results: unknown[]; totalResults?: number }
  | { kind: 'failed'; error: string; retryAfterSeconds?: number }

/** A search function bound to the deployment's registry budget: every lookup of every process shares it. */
export function createRegistrySearch(options: RegistryHttpOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'https://recherche-entreprises.api.gouv.fr').replace(/\/+$/, '')
  let limiter = options.limiter
  // Created at the first request: building a client (e.g. at start-up) must not need the database yet.
  const bucket = () => (limiter ??= createRegistryLimiter({ pool: getPool(), key: registryLimiterKey(baseUrl), requestsPerSecond: options.requestsPerSecond ?? 7 }))
  const registryClass = options.registryClass ?? 'enrichment'
  const fetchImpl = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 3
  const timeoutMs = options.timeoutMs ?? 10_000
  const baseDelay = options.retryBaseDelayMs ?? 500
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60
  const userAgent = options.userAgent ?? 'LeadAtlasBot/0.1 (+https://leadatlas.app/bot)'

  return async function search(params: Record<string, string>, signal?: AbortSignal): Promise<RegistryAttempt> {
    const url = `${baseUrl}/search?${new URLSearchParams(params).toString()}`
    for (let attempt = 0; ; attempt++) {
      const release = await bucket().take(registryClass, signal)
      const backoff = baseDelay * 2 ** attempt * (0.8 + Math.random() * 0.4)
      const deadline = AbortSignal.timeout(timeoutMs)
      let response: Response
      let text: string
      try {
        try {
          response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline, headers: { accept: 'application/json', 'user-agent': userAgent } })
          text = await response.text()
        } finally {
          // Answered or failed: the slot counts for one window from now (limiter.ts).
          await release()
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        const code = deadline.aborted ? 'timeout' : 'network_error'
        if (attempt >= maxRetries) return { kind: 'failed', error: code }
        await sleep(backoff, signal)
        continue
      }
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
        if (retryAfter !== undefined && retryAfter > maxRetryAfter) return { kind: 'failed', error: 'rate_limited', retryAfterSeconds: retryAfter }
        if (attempt >= maxRetries) return { kind: 'failed', error: 'rate_limited', ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) }
        // The limit is per IP: every process waits, not only this lookup.
        await bucket().pauseFor(retryAfter !== undefined ? retryAfter * 1000 : backoff)
        continue
      }
      if (response.status >= 500) {
        if (attempt >= maxRetries) return { kind: 'failed', error: `http_${response.status}` }
        await sleep(backoff, signal)
        continue
      }
      if (response.status === 404) return { kind: 'ok', results: [] }
      if (response.status !== 200) return { kind: 'failed', error: `http_${response.status}` }
      try {
        const body = JSON.parse(text) as { results?: unknown; total_results?: unknown }
        if (!Array.isArray(body.results)) return { kind: 'failed', error: 'invalid_response' }
        return { kind: 'ok', results: body.results, ...(typeof body.total_results === 'number' ? { totalResults: body.total_results } : {}) }
      } catch {
        return { kind: 'failed', error: 'invalid_response' }
      }
    }
  }
}
