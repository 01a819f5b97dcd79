/**
 * OpenStreetMap through the Overpass API. Public instances are shared and rate-limited (~10 000 requests a day, 2
 * concurrent slots per IP), so responses are cached for an hour and every request names us with a real User-Agent.
 * Data © OpenStreetMap contributors, ODbL: the UI and exports must credit it.
 */
import { parseRetryAfter } from '#app/utils/headers.ts'
import { briefText, requestUpstream } from './http.ts'
import { mapOverpassElement, type OverpassElement } from './osm-mapping.ts'
import { buildOverpassQuery } from './osm-query.ts'
import { type Business, type LeadSource, LeadSourceError } from './types.ts'

export interface OsmSourceConfig {
  /** Overpass interpreter URL. */
  endpoint: string
  userAgent: string
  fetch?: typeof fetch
  /** Client-side deadline; the query itself asks Overpass for a little less. */
  timeoutMs?: number
  cacheTtlMs?: number
}

interface CacheEntry {
  expiresAt: number
  elements: OverpassElement[]
}

// Shared by all source instances: a preview and the export that follows it hit the cache, not Overpass.
const cache = new Map<string, CacheEntry>()
const CACHE_MAX_ENTRIES = 200

export function clearOverpassCache(): void {
  cache.clear()
}

function cached(key: string): OverpassElement[] | undefined {
  const entry = cache.get(key)
  if (!entry) return undefined
  if (entry.expiresAt > Date.now()) return entry.elements
  cache.delete(key)
  return undefined
}

function remember(key: string, elements: OverpassElement[], ttlMs: number): void {
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
  cache.set(key, { expiresAt: Date.now() + ttlMs, elements })
}

export function createOsmSource(config: OsmSourceConfig): LeadSource {
  const fetchImpl = config.fetch ?? fetch
  const timeoutMs = config.timeoutMs ?? 100_000
  const cacheTtlMs = config.cacheTtlMs ?? 60 * 60 * 1000

  async function run(query: string, signal: AbortSignal | undefined): Promise<OverpassElement[]> {
    const key = `${config.endpoint}\n${query}`
    const hit = cached(key)
    if (hit) return hit
    const response = await requestUpstream(
      fetchImpl,
      config.endpoint,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': config.userAgent, Accept: 'application/json' },
        body: new URLSearchParams({ data: query }).toString(),
      },
      { timeoutMs, signal, upstream: 'Overpass' },
    )
    if (response.status === 429) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
      throw new LeadSourceError('rate_limited', 'Overpass rate limit reached', retryAfter)
    }
    // Overpass answers 504 when it is overloaded and cannot start the query in time.
    if (response.status === 504) throw new LeadSourceError('timeout', `Overpass is overloaded: ${briefText(response.text)}`)
    if (response.status === 400) throw new LeadSourceError('bad_request', `Overpass rejected the query: ${briefText(response.text)}`)
    if (response.status !== 200) throw new LeadSourceError('upstream_error', `Overpass answered HTTP ${response.status}: ${briefText(response.text)}`)
    let json: { elements?: OverpassElement[]; remark?: string }
    try {
      json = JSON.parse(response.text) as typeof json
    } catch {
      throw new LeadSourceError('upstream_error', `Overpass answered something that is not JSON: ${briefText(response.text, 120)}`)
    }
    // A remark means the query failed part-way (timeout, out of memory) even though the status is 200: the
    // elements are incomplete, so they are neither used nor cached.
    if (json.remark) {
      const code = /time(d)? ?out/i.test(json.remark) ? 'timeout' : 'upstream_error'
      throw new LeadSourceError(code, `Overpass: ${json.remark.trim()}`)
    }
    const elements = Array.isArray(json.elements) ? json.elements : []
    remember(key, elements, cacheTtlMs)
    return elements
  }

  return {
    name: 'osm',
    async *search(params, category, options) {
      const limit = options.limit ?? Number.POSITIVE_INFINITY
      const { query, area } = buildOverpassQuery(params, category, {
        limit: options.limit,
        timeoutSeconds: Math.max(10, Math.floor(timeoutMs / 1000) - 10),
      })
      if (limit <= 0) return
      const elements = await run(query, options.signal)
      const countryCode = area.isFrance ? 'FR' : (params.countryCode?.toUpperCase() ?? null)
      let yielded = 0
      for (const element of elements) {
        if (yielded >= limit) return
        options.signal?.throwIfAborted()
        const business: Business | null = mapOverpassElement(element, { category, countryCode, town: area.town })
        if (!business) continue
        yield business
        yielded++
      }
    },
  }
}
