/**
 * Headers that only our own HTTP server (server/http-app.ts) may set on the requests it hands to
 * React Router. It deletes every incoming `x-leadatlas-*` header first, so a client cannot choose
 * its IP, the CSP nonce, or a rejection.
 */
export const INTERNAL_HEADER_PREFIX = 'x-leadatlas-'
/** Express's `req.ip` (honours TRUST_PROXY): the key of per-IP rate limits. */
export const CLIENT_IP_HEADER = 'x-leadatlas-client-ip'
/** The per-response CSP nonce that inline scripts must carry. */
export const CSP_NONCE_HEADER = 'x-leadatlas-csp-nonce'
/**
 * Set when the HTTP layer refused the request before React Router could (oversized or unreadable
 * body, a method the Fetch API cannot carry): the root middleware answers it with a localized page.
 */
export const REJECTION_HEADER = 'x-leadatlas-rejection'

export const REJECTIONS = {
  'too-large': 413,
  'unsupported-encoding': 415,
  malformed: 400,
  method: 405,
} as const
export type Rejection = keyof typeof REJECTIONS

export function isRejection(value: string | null): value is Rejection {
  return value !== null && Object.hasOwn(REJECTIONS, value)
}

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || 'unknown'
}

export function cspNonce(request: Request): string | undefined {
  return request.headers.get(CSP_NONCE_HEADER) || undefined
}
