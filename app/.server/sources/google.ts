/**
 * Google Places API (New) Text Search. 20 places a page, about 60 per query; pages are chained with nextPageToken,
 * which Google only returns when the field mask asks for it, and the follow-up calls must repeat the first call's
 * parameters. Google's terms forbid storing Places content beyond the place id: the README says so.
 *
 * Google's quota is per project (the API key), per minute and per day: every process of the deployment counts its
 * calls in one budget in Postgres (app/.server/limits/), GOOGLE_PLACES_REQUESTS_PER_MINUTE (600, Google's default)
 * and GOOGLE_PLACES_DAILY_REQUESTS (unset: no daily cap of ours). A call over the minute's budget waits for the next
 * minute; over the day's, the search fails with `rate_limited` until midnight UTC. A 429 pauses every process's calls
 * with that key for its Retry-After (else a minute, the quota's window). Fair shares between accounts (limits/fair.ts):
 * the minute's room goes round-robin between the accounts waiting for it, and one account may spend at most
 * LIMIT_ACCOUNT_DAILY_PERCENT (10 %) of the day's calls.
 */
import { createHash } from 'node:crypto'
import { parseRetryAfter } from '#app/utils/headers.ts'
import { env } from '#app/.server/env.server.ts'
import { sleep } from '#app/.server/enrichment/limits.ts'
import { currentAccount } from '#app/.server/limits/account.ts'
import { accountDayWindow } from '#app/.server/limits/fair.ts'
import { deploymentLimits, type GlobalLimits } from '#app/.server/limits/global.ts'
import { type BudgetWindow, DAY_MS } from '#app/.server/limits/windows.ts'
import { briefText, requestUpstream } from './http.ts'
import { type Business, type LeadSource, LeadSourceError, type ResolvedCategory, type SearchParams } from './types.ts'

export interface GoogleSourceConfig {
  apiKey: string
  /** Defaults to https://places.googleapis.com */
  baseUrl?: string
  fetch?: typeof fetch
  timeoutMs?: number
  /** Safety stop: Google ends around 3 pages, a misbehaving upstream must not loop us forever. */
  maxPages?: number
  /** Where the quota is counted; default the deployment's; null: not counted (this process only, no cap). */
  limits?: GlobalLimits | null
  /** Default GOOGLE_PLACES_REQUESTS_PER_MINUTE. */
  requestsPerMinute?: number
  /** Default GOOGLE_PLACES_DAILY_REQUESTS (unset: none). */
  dailyRequests?: number
  /** The most one account may spend of the day's calls, in percent; default LIMIT_ACCOUNT_DAILY_PERCENT. */
  accountDailyPercent?: number
}

const MINUTE_MS = 60_000
/** A Retry-After beyond this is taken as this (a wrong date must not silence the source for days). */
const RETRY_AFTER_MAX_SECONDS = 3_600

interface GoogleQuota {
  /** The quota's key (its pause's too): the endpoint and a digest of the API key (the key itself is never stored). */
  key: string
  windows: BudgetWindow[]
}

export function googleQuota(endpoint: string, apiKey: string, perMinute: number, perDay: number | undefined): GoogleQuota {
  const project = createHash('sha256').update(apiKey).digest('hex').slice(0, 16)
  const key = `google-places:${new URL(endpoint).host}:${project}`
  const windows: BudgetWindow[] = [{ key: `${key}:minute`, limit: perMinute, windowMs: MINUTE_MS }]
  if (perDay !== undefined) windows.push({ key: `${key}:day`, limit: perDay, windowMs: DAY_MS })
  return { key, windows }
}

/**
 * Refuses the call while a 429 seen by any process holds, then waits for its place in the minute's budget, in the
 * account's turn; the day's calls count in the account's share of the day too.
 */
async function spendQuota(limits: GlobalLimits, quota: GoogleQuota, accountDailyPercent: number, signal: AbortSignal | undefined): Promise<void> {
  const pausedMs = (await limits.pauses.read(quota.key)).untilMs - Date.now()
  if (pausedMs > 0) {
    const seconds = Math.ceil(pausedMs / 1000)
    throw new LeadSourceError('rate_limited', `Google Places asked us to wait: no call for ${seconds} s`, seconds)
  }
  const account = currentAccount()
  const day = quota.windows.find((window) => window.windowMs === DAY_MS)
  const windows = day ? [...quota.windows, accountDayWindow(day, accountDailyPercent, account)] : quota.windows
  for (;;) {
    const wait = await limits.budgets.take(windows, { key: quota.key, account })
    if (wait === 0) return
    if (wait > MINUTE_MS) {
      const seconds = Math.ceil(wait / 1000)
      throw new LeadSourceError('rate_limited', `The day's Google Places calls are spent: the next in ${seconds} s`, seconds)
    }
    await sleep(wait, signal)
  }
}

/** Fields we pay for and map; nextPageToken is what makes paging possible at all. */
export const GOOGLE_FIELD_MASK = [
  'places.id',
  'places.displayName',
  'places.formattedAddress',
  'places.addressComponents',
  'places.location',
  'places.types',
  'places.primaryType',
  'places.rating',
  'places.userRatingCount',
  'places.websiteUri',
  'places.nationalPhoneNumber',
  'places.internationalPhoneNumber',
  'places.googleMapsUri',
  'places.businessStatus',
  'places.regularOpeningHours',
  'nextPageToken',
].join(',')

interface GooglePlace {
  id: string
  displayName?: { text: string; languageCode?: string }
  formattedAddress?: string
  addressComponents?: { longText: string; shortText: string; types: string[] }[]
  location?: { latitude: number; longitude: number }
  types?: string[]
  primaryType?: string
  rating?: number
  userRatingCount?: number
  websiteUri?: string
  nationalPhoneNumber?: string
  internationalPhoneNumber?: string
  googleMapsUri?: string
  businessStatus?: string
  regularOpeningHours?: unknown
}

/** "Boulangerie in Saint-Denis, Seine-Saint-Denis": the most precise place plus its parent to tell homonyms apart. */
function googleTextQuery(params: SearchParams, category: ResolvedCategory | null): string {
  const places = [params.city, params.department, params.region, params.country].map((p) => p?.trim()).filter((p): p is string => !!p)
  if (!category && places.length === 0) {
    throw new LeadSourceError('bad_request', 'Choose a category or a location to search Google Places')
  }
  const what = category?.label.trim() || (params.lang === 'fr' ? 'entreprises' : 'businesses')
  return places.length ? `${what} in ${places.slice(0, 2).join(', ')}` : what
}

function mapGooglePlace(place: GooglePlace): Business {
  const component = (type: string) => place.addressComponents?.find((c) => c.types.includes(type))
  return {
    source: 'google',
    placeId: place.id,
    name: place.displayName?.text ?? '',
    address: place.formattedAddress ?? null,
    fullAddressArray: place.formattedAddress ? place.formattedAddress.split(',').map((p) => p.trim()).filter(Boolean) : [],
    city: (component('locality') ?? component('postal_town'))?.longText ?? null,
    postalCode: component('postal_code')?.longText ?? null,
    countryCode: component('country')?.shortText ?? null,
    latitude: place.location?.latitude ?? null,
    longitude: place.location?.longitude ?? null,
    businessTypes: place.types ?? (place.primaryType ? [place.primaryType] : []),
    website: place.websiteUri ?? null,
    phone: place.nationalPhoneNumber ?? place.internationalPhoneNumber ?? null,
    email: [],
    rating: place.rating ?? null,
    reviewCount: place.userRatingCount ?? null,
    googleMapsUrl: place.googleMapsUri ?? null,
    openingHours: place.regularOpeningHours ?? null,
    operationalState: place.businessStatus ?? null,
    socialMedia: {},
  }
}

function errorFor(status: number, text: string, headers: Headers): LeadSourceError {
  let message = briefText(text)
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message
  } catch {
    // Not JSON (a proxy's HTML page): keep the text.
  }
  if (status === 429) return new LeadSourceError('rate_limited', `Google Places quota exceeded: ${message}`, parseRetryAfter(headers.get('retry-after')))
  if (status === 400) return new LeadSourceError('bad_request', `Google Places rejected the request: ${message}`)
  if (status === 504) return new LeadSourceError('timeout', `Google Places timed out: ${message}`)
  return new LeadSourceError('upstream_error', `Google Places answered HTTP ${status}: ${message}`)
}

export function createGoogleSource(config: GoogleSourceConfig): LeadSource {
  const fetchImpl = config.fetch ?? fetch
  const endpoint = `${(config.baseUrl ?? 'https://places.googleapis.com').replace(/\/+$/, '')}/v1/places:searchText`
  const timeoutMs = config.timeoutMs ?? 30_000
  const maxPages = config.maxPages ?? 10
  const quota = googleQuota(endpoint, config.apiKey, config.requestsPerMinute ?? env.GOOGLE_PLACES_REQUESTS_PER_MINUTE, config.dailyRequests ?? env.GOOGLE_PLACES_DAILY_REQUESTS)
  const limits = config.limits === undefined ? deploymentLimits : () => config.limits ?? null
  const accountDailyPercent = config.accountDailyPercent ?? env.LIMIT_ACCOUNT_DAILY_PERCENT

  return {
    name: 'google',
    scope: `google ${endpoint}`,
    async *search(params, category, options) {
      const limit = options.limit ?? Number.POSITIVE_INFINITY
      // Built once: every page repeats exactly these parameters, only pageToken changes.
      const body: Record<string, unknown> = {
        textQuery: googleTextQuery(params, category),
        languageCode: params.lang,
        pageSize: 20,
      }
      // The resolved country code (resolve-criteria.ts), never what the request sent.
      if (params.countryCode) body.regionCode = params.countryCode
      if (category?.googleType) body.includedType = category.googleType
      if (limit <= 0) return

      let pageToken: string | undefined
      let yielded = 0
      for (let page = 0; page < maxPages; page++) {
        const shared = limits()
        if (shared) await spendQuota(shared, quota, accountDailyPercent, options.signal)
        const response = await requestUpstream(
          fetchImpl,
          endpoint,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Goog-Api-Key': config.apiKey, 'X-Goog-FieldMask': GOOGLE_FIELD_MASK },
            body: JSON.stringify(pageToken ? { ...body, pageToken } : body),
          },
          { timeoutMs, signal: options.signal, upstream: 'Google Places' },
        )
        if (response.status !== 200) {
          const error = errorFor(response.status, response.text, response.headers)
          if (error.code === 'rate_limited' && shared) {
            const seconds = Math.min(error.retryAfterSeconds ?? MINUTE_MS / 1000, RETRY_AFTER_MAX_SECONDS)
            await shared.pauses.set(quota.key, { untilMs: Date.now() + seconds * 1000, failures: 0 })
          }
          throw error
        }
        let json: { places?: GooglePlace[]; nextPageToken?: string }
        try {
          json = JSON.parse(response.text) as typeof json
        } catch {
          throw new LeadSourceError('upstream_error', 'Google Places answered something that is not JSON')
        }
        for (const place of json.places ?? []) {
          if (yielded >= limit) return
          options.signal?.throwIfAborted()
          yield mapGooglePlace(place)
          yielded++
        }
        if (!json.nextPageToken || yielded >= limit) return
        pageToken = json.nextPageToken
      }
    },
  }
}
