/**
 * The delivery request: POST through the crawler's guarded connector (every address vetted at connect time), a
 * deadline over the whole exchange, redirects never followed, and only the start of the answer read (for the log).
 */
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { guardedConnector, toFetchError } from '#app/.server/enrichment/http.ts'
import { DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from '#app/domain/webhooks.ts'
import { vetWebhookUrl, type WebhookNetwork } from './guard.ts'

export interface PostOutcome {
  /** null when no answer came. */
  status: number | null
  body: Buffer
  durationMs: number
  error: string | null
}

export interface WebhookClient {
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>
  close(): Promise<void>
}

export function createWebhookClient(network: WebhookNetwork, timeoutMs = DELIVERY_TIMEOUT_MS): WebhookClient {
  const agent = new Agent({
    connect: guardedConnector(network.allowList, network.lookup, timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
  })
  return {
    async post(url, body, headers) {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      const refusal = vetWebhookUrl(url, network)
      if (refusal) return { status: null, body: Buffer.alloc(0), durationMs: elapsed(), error: refusal === 'https_required' ? 'blocked_scheme' : 'blocked_address' }
      const deadline = AbortSignal.timeout(timeoutMs)
      try {
        const response = await request(url, {
          dispatcher: agent,
          method: 'POST',
          body,
          signal: deadline,
          headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'LeadAtlas-Webhooks/1.0' },
        })
        response.body.on('error', () => undefined)
        const chunks: Buffer[] = []
        let size = 0
        for await (const chunk of response.body) {
          chunks.push(chunk as Buffer)
          size += (chunk as Buffer).length
          if (size >= RESPONSE_EXCERPT_BYTES) break
        }
        response.body.destroy()
        return { status: response.statusCode, body: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES), durationMs: elapsed(), error: null }
      } catch (error) {
        const code = deadline.aborted ? 'timeout' : toFetchError(error, new URL(url)).code
        return { status: null, body: Buffer.alloc(0), durationMs: elapsed(), error: code }
      }
    },
    close: () => agent.close(),
  }
}
