/**
 * The client's address, for per-IP rate limits. server/start.ts overwrites this header on every
 * request with Express's `req.ip` (which honours TRUST_PROXY), so a client cannot choose it.
 */
export const CLIENT_IP_HEADER = 'x-leadatlas-client-ip'

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || 'unknown'
}
