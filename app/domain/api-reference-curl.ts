/**
 * The curl command of each operation on /developers: POSIX shell quoting, one option a line. Values are
 * single-quoted (nothing inside is expanded) except those that name a shell variable on purpose, such
 * as the API key (`"Authorization: Bearer $LEADATLAS_API_KEY"`), which must be double-quoted to expand.
 */

export interface CurlHeader {
  name: string
  value: string
  /** Double quotes, so `$VARIABLE` in the value expands; the value must hold no `"`, `\` or backtick. */
  expand?: boolean
}

export interface CurlRequest {
  method: string
  url: string
  headers: CurlHeader[]
  /** Sent as JSON (pretty-printed) with `Content-Type: application/json`. */
  body?: unknown
  /** The answer is a file: `-OJ` saves it under the name its Content-Disposition gives. */
  saveFile?: boolean
}

/** `it's` → `'it'\''s'`: the only character a single-quoted shell word cannot hold is the quote itself. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

function expandable(text: string): string {
  if (/["\\`]/.test(text)) throw new Error(`curl: a value that expands cannot hold ", \\ or a backtick: ${text}`)
  return `"${text}"`
}

export function buildCurl({ method, url, headers, body, saveFile }: CurlRequest): string {
  const verb = method.toUpperCase()
  const lines = [verb === 'GET' ? `curl ${shellQuote(url)}` : `curl -X ${verb} ${shellQuote(url)}`]
  const all = body === undefined ? headers : [...headers, { name: 'Content-Type', value: 'application/json' }]
  for (const header of all) {
    const text = `${header.name}: ${header.value}`
    lines.push(`-H ${header.expand ? expandable(text) : shellQuote(text)}`)
  }
  if (body !== undefined) lines.push(`--data ${shellQuote(JSON.stringify(body, null, 2))}`)
  if (saveFile) lines.push('-OJ')
  return lines.join(' \\\n  ')
}

/** The URL with path parameters filled in (`{id}` → its example) and the query string appended. */
export function buildUrl(base: string, path: string, pathValues: Record<string, string>, query: Array<[string, string]>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (whole, name: string) => (name in pathValues ? encodeURIComponent(pathValues[name]!) : whole))
  const search = new URLSearchParams(query).toString()
  return `${base.replace(/\/+$/, '')}${filled}${search ? `?${search}` : ''}`
}
