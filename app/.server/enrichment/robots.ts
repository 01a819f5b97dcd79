/**
 * robots.txt, fetched once per origin and cached (RFC 9309): 2xx → rules; 4xx → everything allowed; 5xx → the site
 * is treated as unavailable (RFC 9309 says assume complete disallow, so no page is fetched); network failures are not
 * cached (the next crawl tries again). One fetch per origin even when many crawls ask at once; a caller that aborts
 * stops waiting without cancelling the shared fetch (which has its own deadline).
 */
import robotsParser from 'robots-parser'
import { FetchError, type GuardedHttp } from './http.ts'

const ROBOTS_TOKEN = 'LeadAtlasBot'
const MAX_ROBOTS_BYTES = 512 * 1024
const MAX_SITEMAP_LINES = 10

export type RobotsRules =
  | { kind: 'rules'; isAllowed: (url: string) => boolean; text: string; sitemaps: string[] }
  | { kind: 'allow_all'; text: ''; sitemaps: [] }
  | { kind: 'unavailable'; status: number; text: ''; sitemaps: [] }

interface Entry {
  expires: number
  rules: Promise<RobotsRules>
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>()
  /** robots.txt requests actually sent (tests check the once-per-origin rule). */
  fetches = 0

  constructor(
    private readonly http: GuardedHttp,
    private readonly options: { ttlMs?: number; unavailableTtlMs?: number; maxEntries?: number } = {},
  ) {}

  /** The rules of `url`'s origin. Rejects with FetchError when robots.txt cannot be fetched at all. */
  rulesFor(url: URL, signal?: AbortSignal): Promise<RobotsRules> {
    const origin = url.origin
    const now = Date.now()
    let entry = this.entries.get(origin)
    if (!entry || entry.expires < now) {
      const rules = this.fetchRules(origin)
      entry = { expires: now + (this.options.ttlMs ?? 3_600_000), rules }
      this.entries.set(origin, entry)
      this.evict()
      const current = entry
      rules.then(
        (result) => {
          if (result.kind === 'unavailable') current.expires = Date.now() + (this.options.unavailableTtlMs ?? 60_000)
        },
        () => {
          if (this.entries.get(origin) === current) this.entries.delete(origin)
        },
      )
    } else {
      // Most recently used last, for eviction.
      this.entries.delete(origin)
      this.entries.set(origin, entry)
    }
    return waitFor(entry.rules, signal)
  }

  async isAllowed(url: URL, signal?: AbortSignal): Promise<boolean> {
    const rules = await this.rulesFor(url, signal)
    if (rules.kind === 'allow_all') return true
    if (rules.kind === 'unavailable') return false
    return rules.isAllowed(url.href)
  }

  private async fetchRules(origin: string): Promise<RobotsRules> {
    this.fetches++
    const robotsUrl = `${origin}/robots.txt`
    const response = await this.http.get(robotsUrl, { accept: 'text/plain,*/*;q=0.5', maxBytes: MAX_ROBOTS_BYTES })
    if (response.status >= 200 && response.status < 300) {
      const text = response.body.toString('utf8')
      const robot = robotsParser(robotsUrl, text)
      // Its Sitemap: lines, where the crawler looks for contact and legal pages the homepage does not link.
      const sitemaps = robot.getSitemaps().slice(0, MAX_SITEMAP_LINES)
      return { kind: 'rules', text, sitemaps, isAllowed: (url) => robot.isAllowed(url, ROBOTS_TOKEN) !== false }
    }
    if (response.status >= 400 && response.status < 500 && response.status !== 429) return { kind: 'allow_all', text: '', sitemaps: [] }
    return { kind: 'unavailable', status: response.status, text: '', sitemaps: [] }
  }

  private evict() {
    const max = this.options.maxEntries ?? 5_000
    while (this.entries.size > max) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }
}

/** Waits for a shared promise, giving up (with the signal's reason) when the caller aborts. */
function waitFor<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error instanceof FetchError ? error : new FetchError('network_error', String((error as Error)?.message ?? error)))
      },
    )
  })
}
