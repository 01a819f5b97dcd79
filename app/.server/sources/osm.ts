/**
 * OpenStreetMap through the Overpass API. Data © OpenStreetMap contributors, ODbL: the UI and exports credit it.
 *
 * Public instances are shared (about 10 000 requests a day and 2 concurrent slots per IP), so this source follows
 * the usage policy:
 * - One query per area and category. The answer is fetched once at the source's ceiling (`maxElements`, 10 000
 *   elements, the most any caller reads: the preview's free count reads 2 001, an export at most
 *   EXPORT_MAX_LEADS × 5 with its gates) and cached under the area + category only, never the limit: the preview,
 *   its count and the export launched from it all read the same entry.
 * - The cache keeps answers an hour (LRU, at most 200 answers and 100 000 elements in all). Identical queries in
 *   flight at the same time share one request.
 * - At most 2 requests in flight per endpoint, and at most OVERPASS_DAILY_REQUESTS (10 000) a UTC day, for every
 *   process of the deployment together (leases and a day budget in Postgres, app/.server/limits/); more wait for a
 *   slot (the caller's abort still applies); past the day's budget searches fail with `rate_limited` until midnight UTC.
 *   Fair shares between accounts (limits/fair.ts): the slots go round-robin between the accounts waiting, and one
 *   account may spend at most LIMIT_ACCOUNT_DAILY_PERCENT (10 %) of the day.
 * - Back-off: after a 429 (Retry-After honoured, else exponential from 10 s to 10 min), a `remark` (the query failed
 *   part-way with HTTP 200) or a 504 (overloaded), nothing is sent to that endpoint until the back-off has passed:
 *   searches meanwhile fail at once with `rate_limited` (cached answers are still served). A success resets it. The
 *   back-off is written to Postgres too: every process obeys it.
 * - Every request names us with a User-Agent carrying a contact (app/.server/sources/index.ts).
 *
 * The cache and the back-off live on globalThis: under `npm start` the app's bundle and the in-process worker each
 * load their own copy of this module, and a preview and the export after it must share them.
 */
import { LRUCache } from 'lru-cache'
import { parseRetryAfter } from '#app/utils/headers.ts'
import { env } from '#app/.server/env.server.ts'
import { currentAccount } from '#app/.server/limits/account.ts'
import { accountDayWindow, FairSlots } from '#app/.server/limits/fair.ts'
import { deploymentLimits, type GlobalLimits } from '#app/.server/limits/global.ts'
import { DAY_MS } from '#app/.server/limits/windows.ts'
import { briefText, requestUpstream } from './http.ts'
import { mapOverpassElement, type OverpassElement } from './osm-mapping.ts'
import { buildOverpassQuery } from './osm-query.ts'
import { SharedRequests } from './shared-requests.ts'
import { type Business, type LeadSource, LeadSourceError } from './types.ts'

export interface OsmSourceConfig {
  /** Overpass interpreter URL. */
  endpoint: string
  userAgent: string
  fetch?: typeof fetch
  /** Client-side deadline; the query itself asks Overpass for a little less. */
  timeoutMs?: number
  cacheTtlMs?: number
  /** Elements one query asks for (the ceiling of every search). Default OVERPASS_MAX_ELEMENTS. */
  maxElements?: number
  /** Clock of the back-off (tests). */
  now?: () => number
  /** Where the slots, the day budget and the back-off are shared; default the deployment's; null: this process only. */
  limits?: GlobalLimits | null
  /** Default OVERPASS_DAILY_REQUESTS. */
  dailyRequests?: number
  /** The most one account may spend of the day's queries, in percent; default LIMIT_ACCOUNT_DAILY_PERCENT. */
  accountDailyPercent?: number
}

const OVERPASS_MAX_ELEMENTS = 10_000
const CACHE_MAX_ENTRIES = 200
const CACHE_MAX_ELEMENTS = 100_000
const MAX_IN_FLIGHT = 2
const BACKOFF_BASE_MS = 10_000
const BACKOFF_MAX_MS = 10 * 60_000
/** A Retry-After beyond this is taken as this (a wrong date must not silence the source for days). */
const RETRY_AFTER_MAX_SECONDS = 3_600

interface Backoff {
  /** No request before this time (ms, the source's clock). */
  until: number
  /** Failures in a row: the exponent of the next wait without Retry-After. */
  failures: number
}

interface OverpassState {
  cache: LRUCache<string, OverpassElement[]>
  requests: SharedRequests<OverpassElement[]>
  backoff: Map<string, Backoff>
  slots: Map<string, FairSlots>
}

const STATE_KEY = Symbol.for('leadatlas.overpass')
type WithState = typeof globalThis & { [STATE_KEY]?: OverpassState }

function state(): OverpassState {
  const holder = globalThis as WithState
  return (holder[STATE_KEY] ??= {
    cache: new LRUCache<string, OverpassElement[]>({
      max: CACHE_MAX_ENTRIES,
      maxSize: CACHE_MAX_ELEMENTS,
      sizeCalculation: (elements) => elements.length + 1,
    }),
    requests: new SharedRequests(),
    backoff: new Map(),
    slots: new Map(),
  })
}

/** Forgets cached answers, requests in flight and back-offs (tests). */
export function clearOverpassCache(): void {
  const current = state()
  current.cache.clear()
  current.requests.clear()
  current.backoff.clear()
  current.slots.clear()
}

/** Seconds until `endpoint` may be asked again (0: now). */
export function overpassBackoffSeconds(endpoint: string, now = Date.now()): number {
  const backoff = state().backoff.get(endpoint)
  return backoff && backoff.until > now ? Math.ceil((backoff.until - now) / 1000) : 0
}

/** The back-off's next step, in this process: how long to wait (ms). */
function backOffLocally(endpoint: string, retryAfterSeconds: number | undefined, now: number): { waitMs: number; backoff: Backoff } {
  const backoffs = state().backoff
  const failures = backoffs.get(endpoint)?.failures ?? 0
  const waitMs =
    retryAfterSeconds !== undefined
      ? Math.min(retryAfterSeconds, RETRY_AFTER_MAX_SECONDS) * 1000
      : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** failures)
  const backoff = { until: now + waitMs, failures: failures + 1 }
  backoffs.set(endpoint, backoff)
  return { waitMs, backoff }
}

/** The key of an endpoint's limits in Postgres. */
function sharedKey(endpoint: string): string {
  return `overpass:${endpoint}`
}

/**
 * Records a failure that calls for waiting: `retryAfterSeconds` when Overpass said how long, else the exponential
 * step. Also used by the start-up probe when its request is answered 429 (the other processes hear of it shortly).
 */
export function backOffOverpass(endpoint: string, retryAfterSeconds: number | undefined, now = Date.now()): number {
  const { waitMs, backoff } = backOffLocally(endpoint, retryAfterSeconds, now)
  deploymentLimits()
    ?.pauses.set(sharedKey(endpoint), { untilMs: backoff.until, failures: backoff.failures })
    .catch((error: unknown) => console.error('[overpass] the back-off could not be shared:', (error as Error).message))
  return Math.ceil(waitMs / 1000)
}

function slotsFor(endpoint: string): FairSlots {
  const all = state().slots
  let slots = all.get(endpoint)
  if (!slots) all.set(endpoint, (slots = new FairSlots(MAX_IN_FLIGHT)))
  return slots
}

/** What one request to Overpass needs. */
interface OverpassClient {
  endpoint: string
  userAgent: string
  fetchImpl: typeof fetch
  timeoutMs: number
  now: () => number
  limits: () => GlobalLimits | null
  dailyRequests: number
  accountDailyPercent: number
}

function refuseWhileBackingOff(client: OverpassClient): void {
  const wait = overpassBackoffSeconds(client.endpoint, client.now())
  if (wait > 0) throw new LeadSourceError('rate_limited', `Overpass asked us to wait: no request for ${wait} s`, wait)
}

/** A failure that means "too much load": back off (every process), then report it as `code`. */
async function overloaded(client: OverpassClient, code: 'rate_limited' | 'timeout' | 'upstream_error', message: string, retryAfterSeconds?: number): Promise<LeadSourceError> {
  const { waitMs, backoff } = backOffLocally(client.endpoint, retryAfterSeconds, client.now())
  await client.limits()?.pauses.set(sharedKey(client.endpoint), { untilMs: backoff.until, failures: backoff.failures })
  return new LeadSourceError(code, message, code === 'rate_limited' ? Math.ceil(waitMs / 1000) : retryAfterSeconds)
}

/** Takes on a back-off another process wrote (the longer wait and the higher failure count win). */
async function adoptSharedBackoff(client: OverpassClient, limits: GlobalLimits): Promise<void> {
  const shared = await limits.pauses.read(sharedKey(client.endpoint))
  const backoffs = state().backoff
  const local = backoffs.get(client.endpoint) ?? { until: 0, failures: 0 }
  if (shared.untilMs > local.until || shared.failures > local.failures) {
    backoffs.set(client.endpoint, { until: Math.max(local.until, shared.untilMs), failures: Math.max(local.failures, shared.failures) })
  }
}

/**
 * Counts the query in the day's budget of every process and in the account's share of it (fair.ts: at most
 * accountDailyPercent of the day, so one account's saved searches cannot spend everybody's day), or refuses it until
 * the budget starts over.
 */
async function spendDailyBudget(client: OverpassClient, limits: GlobalLimits): Promise<void> {
  const day = { key: `overpass-day:${client.endpoint}`, limit: client.dailyRequests, windowMs: DAY_MS }
  const share = accountDayWindow(day, client.accountDailyPercent)
  const wait = await limits.budgets.take([day, share])
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000)
    throw new LeadSourceError('rate_limited', `The day's Overpass queries (${client.dailyRequests}, at most ${share.limit} per account) are spent: the next in ${seconds} s`, seconds)
  }
}

/** One query, sent only outside a back-off, within the endpoint's slots and the day's budget. */
async function fetchElements(client: OverpassClient, query: string, signal: AbortSignal): Promise<OverpassElement[]> {
  refuseWhileBackingOff(client)
  // The endpoint's slots go round-robin between the accounts waiting for one, here and in every process (fair.ts).
  const account = currentAccount()
  const slots = slotsFor(client.endpoint)
  await slots.acquire(signal, account)
  let lease: (() => void) | undefined
  try {
    const limits = client.limits()
    if (limits) {
      lease = await limits.concurrency.acquire(sharedKey(client.endpoint), MAX_IN_FLIGHT, signal, account)
      await adoptSharedBackoff(client, limits)
    }
    // A 429 may have come in (here or in another process) while this request waited for its slot.
    refuseWhileBackingOff(client)
    if (limits) await spendDailyBudget(client, limits)
    const response = await requestUpstream(
      client.fetchImpl,
      client.endpoint,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': client.userAgent, Accept: 'application/json' },
        body: new URLSearchParams({ data: query }).toString(),
      },
      { timeoutMs: client.timeoutMs, signal, upstream: 'Overpass' },
    )
    if (response.status === 429) {
      throw await overloaded(client, 'rate_limited', 'Overpass rate limit reached', parseRetryAfter(response.headers.get('retry-after')))
    }
    // Overpass answers 504 when it is overloaded and cannot start the query in time.
    if (response.status === 504) throw await overloaded(client, 'timeout', `Overpass is overloaded: ${briefText(response.text)}`)
    if (response.status === 400) throw new LeadSourceError('bad_request', `Overpass rejected the query: ${briefText(response.text)}`)
    if (response.status !== 200) throw new LeadSourceError('upstream_error', `Overpass answered HTTP ${response.status}: ${briefText(response.text)}`)
    let json: { elements?: OverpassElement[]; remark?: string }
    try {
      json = JSON.parse(response.text) as typeof json
    } catch {
      throw new LeadSourceError('upstream_error', `Overpass answered something that is not JSON: ${briefText(response.text, 120)}`)
    }
    // A remark means the query failed part-way (timeout, out of memory) even though the status is 200: the
    // elements are incomplete, so they are neither used nor cached, and the server is given time.
    if (json.remark) {
      throw await overloaded(client, /time(d)? ?out/i.test(json.remark) ? 'timeout' : 'upstream_error', `Overpass: ${json.remark.trim()}`)
    }
    const backoff = state().backoff.get(client.endpoint)
    if (backoff && backoff.failures > 0) {
      backoff.failures = 0
      await client.limits()?.pauses.settle(sharedKey(client.endpoint))
    }
    return Array.isArray(json.elements) ? json.elements : []
  } finally {
    lease?.()
    slots.release()
  }
}

export function createOsmSource(config: OsmSourceConfig): LeadSource {
  const client: OverpassClient = {
    endpoint: config.endpoint,
    userAgent: config.userAgent,
    fetchImpl: config.fetch ?? fetch,
    timeoutMs: config.timeoutMs ?? 100_000,
    now: config.now ?? Date.now,
    limits: config.limits === undefined ? deploymentLimits : () => config.limits ?? null,
    dailyRequests: config.dailyRequests ?? env.OVERPASS_DAILY_REQUESTS,
    accountDailyPercent: config.accountDailyPercent ?? env.LIMIT_ACCOUNT_DAILY_PERCENT,
  }
  const cacheTtlMs = config.cacheTtlMs ?? 60 * 60 * 1000
  const maxElements = config.maxElements ?? OVERPASS_MAX_ELEMENTS

  /** The answer for one area + category: cached, or joined while in flight, or asked for. */
  async function run(selector: string, query: string, signal: AbortSignal | undefined): Promise<OverpassElement[]> {
    const key = `${client.endpoint}\n${selector}`
    const { cache, requests } = state()
    const hit = cache.get(key)
    if (hit) return hit
    return requests.run(key, signal, async (shared) => {
      const elements = await fetchElements(client, query, shared)
      cache.set(key, elements, { ttl: cacheTtlMs })
      return elements
    })
  }

  return {
    name: 'osm',
    scope: `osm ${client.endpoint}`,
    async *search(params, category, options) {
      const limit = options.limit ?? Number.POSITIVE_INFINITY
      const { query, selector, area } = buildOverpassQuery(params, category, {
        maxElements,
        timeoutSeconds: Math.max(10, Math.floor(client.timeoutMs / 1000) - 10),
      })
      if (limit <= 0) return
      const elements = await run(selector, query, options.signal)
      const countryCode = area.isFrance ? 'FR' : (params.countryCode ?? null)
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
