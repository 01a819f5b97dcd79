/**
 * One day's BODACC announcements of one family, from the DILA open-data portal (Opendatasoft Explore API v2.1):
 * `GET {BODACC_URL}/api/explore/v2.1/catalog/datasets/annonces-commerciales/exports/json?where=dateparution=date'<day>'
 * &refine=familleavis:<family>`. The exports endpoint, unlike /records, returns every matching record (no 10 000
 * cap, `limit` defaults to all) as one JSON array of flat records, the nested fields (jugement, listepersonnes…) as
 * JSON text; `where` takes an ODSQL expression, `refine` a facet:value.
 *
 * Bounded memory on a big day: the array is split as it arrives (no streaming JSON parser in package.json, and the
 * array's grammar is small), so only one record's text and one batch of announcements are held at a time.
 */
import { type BodaccAnnouncement, readBodaccRecord } from '#app/domain/registry-risk.ts'
import { fetchWithRetry, type HttpOptions, RegistryFetchError } from './sirene-flux.ts'

/** The families the risk shield and the new-companies watch read. */
export const BODACC_FAMILIES = ['collective', 'radiation', 'creation', 'immatriculation'] as const
export type BodaccFamily = (typeof BODACC_FAMILIES)[number]

export interface BodaccExportOptions extends HttpOptions {
  /** BODACC_URL, e.g. https://bodacc-datadila.opendatasoft.com */
  baseUrl: string
  /** Announcements per batch yielded. */
  batchSize?: number
}

export interface BodaccBatch {
  announcements: BodaccAnnouncement[]
  /** Records that were not JSON or not announcements readBodaccRecord can use (no id, date or company). */
  unusable: number
}

function bodaccExportUrl(baseUrl: string, day: string, family: BodaccFamily): string {
  const query = new URLSearchParams({ where: `dateparution=date'${day}'`, refine: `familleavis:${family}` })
  return `${baseUrl.replace(/\/+$/, '')}/api/explore/v2.1/catalog/datasets/annonces-commerciales/exports/json?${query}`
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN = new Set([0x5b, 0x7b])
const CLOSE = new Set([0x5d, 0x7d])

/**
 * The texts of a JSON array's items, as the array's text arrives in chunks. Only the nesting depth and whether we
 * are inside a string are tracked: an item ends at a comma or the closing bracket at the array's own depth.
 */
export async function* jsonArrayItems(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let depth = 0
  let inString = false
  let escaped = false
  let closed = false
  let pieces: string[] = []
  for await (const chunk of chunks) {
    let start = 0
    for (let i = 0; i < chunk.length; i += 1) {
      const code = chunk.charCodeAt(i)
      if (closed) {
        if (chunk[i]!.trim()) throw new Error('BODACC export: text after the end of the array')
        continue
      }
      if (inString) {
        if (escaped) escaped = false
        else if (code === BACKSLASH) escaped = true
        else if (code === QUOTE) inString = false
        continue
      }
      if (depth === 0) {
        if (code === OPEN_ARRAY) {
          depth = 1
          start = i + 1
        } else if (chunk[i]!.trim()) throw new Error('BODACC export: not a JSON array')
        continue
      }
      if (code === QUOTE) inString = true
      else if (OPEN.has(code)) depth += 1
      else if (CLOSE.has(code) && depth > 1) depth -= 1
      else if (depth === 1 && (code === COMMA || code === CLOSE_ARRAY)) {
        pieces.push(chunk.slice(start, i))
        const item = pieces.join('').trim()
        pieces = []
        start = i + 1
        if (item) yield item
        if (code === CLOSE_ARRAY) {
          depth = 0
          closed = true
        }
      }
    }
    if (depth >= 1 && !closed) pieces.push(chunk.slice(start))
  }
  if (!closed) throw new Error('BODACC export: the array was cut short')
}

async function* textOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader()
  // Streaming mode: a character cut between two chunks is completed by the next.
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      yield decoder.decode(value, { stream: true })
    }
    yield decoder.decode()
  } finally {
    await reader.cancel().catch(() => {})
  }
}

/** A record of the export as an announcement; null when it is not JSON or not a usable announcement. */
function readItem(item: string): BodaccAnnouncement | null {
  try {
    return readBodaccRecord(JSON.parse(item))
  } catch {
    return null
  }
}

/** The day's announcements of one family, in batches; unusable records are counted, not fatal. */
export async function* bodaccDayBatches(day: string, family: BodaccFamily, options: BodaccExportOptions): AsyncGenerator<BodaccBatch> {
  const batchSize = options.batchSize ?? 500
  const response = await fetchWithRetry(bodaccExportUrl(options.baseUrl, day, family), { headers: { Accept: 'application/json' } }, options)
  if (!response.ok || !response.body) {
    const detail = (await response.text().catch(() => '')).slice(0, 300)
    throw new RegistryFetchError(`BODACC export of ${day} (${family}): HTTP ${response.status}: ${detail || response.statusText}`, response.status)
  }
  let batch: BodaccBatch = { announcements: [], unusable: 0 }
  for await (const item of jsonArrayItems(textOf(response.body))) {
    const announcement = readItem(item)
    if (announcement) batch.announcements.push(announcement)
    else batch.unusable += 1
    if (batch.announcements.length + batch.unusable >= batchSize) {
      yield batch
      batch = { announcements: [], unusable: 0 }
    }
  }
  if (batch.announcements.length + batch.unusable > 0) yield batch
}
