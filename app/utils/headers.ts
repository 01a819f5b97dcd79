import type { HeadersArgs } from 'react-router'

/**
 * Document responses only carry the headers a route's `headers` export returns: pass on a
 * loader's or action's Retry-After (rate limits), so a no-JS form post gets it too.
 */
export function retryAfterHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  const headers = new Headers()
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}
