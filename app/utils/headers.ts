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
