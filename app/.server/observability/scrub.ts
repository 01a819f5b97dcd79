/**
 * What a log line must never carry: email addresses (personal data) and secrets that travel in URLs (reset tokens,
 * API keys, codes). Pure, so tests/unit/log-scrub.test.ts pins the rules.
 */

// The local part's usual characters (not / = ? &, which end a path segment or a query value), then a dotted domain.
// The domain ends in a letter TLD: `***@127.0.0.1` in a masked connection string is not an address.
// A match starts only where a run of those characters starts (lookbehind): otherwise each position inside a long run
// without "@" (a cookie, a token) retried the run, quadratic in its length.
const EMAIL = /(?<![\w.!#$%'*+^`{|}~-])[\w.!#$%'*+^`{|}~-]+@(?:[a-z\d-]+\.)+[a-z][a-z\d-]*[a-z\d]/gi
/** Query parameters whose value is a credential, whatever it looks like. */
const SECRET_PARAM = /token|password|passwd|secret|key|code|auth|session|signature|sig|otp|nonce|hash/i

export const REDACTED = '[redacted]'

/** Paths whose segment is the credential itself (a team invitation's link). */
const SECRET_PATH = /^(\/invitations\/)[^/]+/

/** `text` with every email address replaced. */
export function scrubText(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, '[email]') : text
}

/** A request's path and query as they may be logged: secret parameters blanked, email addresses removed. */
export function scrubUrl(url: string): string {
  const queryAt = url.indexOf('?')
  const pathname = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1${REDACTED}`)
  const decoded = safeDecode(pathname)
  const scrubbed = scrubText(decoded)
  // Untouched paths keep their encoding; one that held an address is logged decoded, without it.
  const path = scrubbed === decoded ? pathname : scrubbed
  if (queryAt === -1) return path
  const params = new URLSearchParams(url.slice(queryAt + 1))
  const kept: string[] = []
  for (const [name, value] of params) {
    // A value may be such a path too (/login?redirectTo=/invitations/…).
    const shown = SECRET_PARAM.test(name) ? REDACTED : scrubText(value).replace(SECRET_PATH, `$1${REDACTED}`)
    kept.push(`${encodeURIComponent(scrubText(name))}=${shown === REDACTED ? shown : encodeURIComponent(shown)}`)
  }
  return kept.length ? `${path}?${kept.join('&')}` : path
}

/**
 * Every string inside `value` scrubbed (plain objects and arrays copied, a few levels deep: log fields are shallow).
 * Other class instances (a request, a response) are left to the logger's serializers, which pick plain fields from
 * them afterwards: walking one copied a socket's worth of fields, about 10 ms a request.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value)
  if (depth > 4 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1))
  if (value instanceof Error) return { type: value.name, message: scrubText(value.message), stack: value.stack ? scrubText(value.stack) : undefined }
  if (value instanceof URL) return scrubUrl(value.href)
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, depth + 1)
  return copy
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
