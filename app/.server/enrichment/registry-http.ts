/**
 * The registry API's HTTP side: one GET /search per call, shared rate limit, Retry-After pauses for every caller of
 * the same client, exponential backoff on 5xx and network errors (see registry.ts).
 */
import { RateLimiter, sleep } from './limits.ts'
import { parseRetryAfter } from '#app/utils/headers.ts'

export interface RegistryHttpOptions {
  /** Default https://recherche-entreprises.api.gouv.fr */
  baseUrl?: string
  /** Default 7 (the API's documented limit per IP). */
  requestsPerSecond?: number
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
  | { kind: 'ok'; results: unknown[] }
  | { kind: 'failed'; error: string; retryAfterSeconds?: number }

/** A search function bound to one rate limiter: every lookup of a client shares it. */
export function createRegistrySearch(options: RegistryHttpOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'https://recherche-entreprises.api.gouv.fr').replace(/\/+$/, '')
  const bucket = new RateLimiter(options.requestsPerSecond ?? 7)
  const fetchImpl = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 3
  const timeoutMs = options.timeoutMs ?? 10_000
  const baseDelay = options.retryBaseDelayMs ?? 500
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60
  const userAgent = options.userAgent ?? 'LeadAtlasBot/0.1 (+https://leadatlas.app/bot)'

  return async function search(params: Record<string, string>, signal?: AbortSignal): Promise<RegistryAttempt> {
    const url = `${baseUrl}/search?${new URLSearchParams(params).toString()}`
    for (let attempt = 0; ; attempt++) {
      await bucket.take(signal)
      const backoff = baseDelay * 2 ** attempt * (0.8 + Math.random() * 0.4)
      const deadline = AbortSignal.timeout(timeoutMs)
      let response: Response
      let text: string
      try {
        response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline, headers: { accept: 'application/json', 'user-agent': userAgent } })
        text = await response.text()
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
        // The limit is per IP: every lookup of this client waits, not only this one.
        bucket.pauseFor(retryAfter !== undefined ? retryAfter * 1000 : backoff)
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
        const body = JSON.parse(text) as { results?: unknown }
        if (!Array.isArray(body.results)) return { kind: 'failed', error: 'invalid_response' }
        return { kind: 'ok', results: body.results }
      } catch {
        return { kind: 'failed', error: 'invalid_response' }
      }
    }
  }
}
