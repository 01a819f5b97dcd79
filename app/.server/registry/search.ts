/**
 * The registry-first search's client: filters (app/domain/registry-search.ts) → recherche-entreprises `GET /search`
 * pages → establishments with their labels.
 *
 * Politeness (issue 22 item 5): every request takes a slot of the deployment's registry budget under the "search"
 * class (limiter.ts: 7/s for all processes, half of it guaranteed to the enrichment's lookups); a 429's Retry-After
 * pauses every process; 25 results a page; the contact is in the User-Agent, as for Overpass. Identical queries
 * (same registry, same normalized parameters) are answered for a day from registry_search_cache, shared by every
 * process, and identical queries running at the same time in one process share one request.
 *
 * Beyond the registry's 10 000-result cap, `establishments()` splits the search by department, then by commune.
 */
import crypto from 'node:crypto'
import type pg from 'pg'
import { createRegistrySearch } from '#app/.server/enrichment/registry-http.ts'
import { legalCategoryLabel, nafLabel } from '#app/.server/enrichment/registry-labels.ts'
import { LEGAL_CATEGORIES } from '#app/.server/enrichment/registry-legal-categories.ts'
import { allowListFromEnv } from '#app/.server/enrichment/ssrf.ts'
import { getPool } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import { franceData } from '#app/.server/geo/france.ts'
import { PUBLIC_REGISTRY_URL } from '#app/.server/sources/selection.ts'
import { SharedRequests } from '#app/.server/sources/shared-requests.ts'
import { leadSourceUserAgent } from '#app/.server/sources/user-agent.ts'
import {
  pagesFor,
  REGISTRY_RESULT_CAP,
  registryParams,
  registryTotal,
  splitPlan,
  toRegistryEstablishment,
  type RegistryEstablishment,
  type RegistryFilters,
  type RegistryPlace,
} from '#app/domain/registry-search.ts'
import { createRegistryCache } from './cache.ts'
import { createRegistryLimiter, registryLimiterKey, registryRequestsPerSecond, type RegistryLimiter } from './limiter.ts'

const DAY_SECONDS = 24 * 60 * 60

/** An establishment with the French labels of its codes (INSEE publishes them in French only). */
export interface LabelledEstablishment extends RegistryEstablishment {
  activityLabel: string | null
  legalFormLabel: string | null
}

interface RegistryPage {
  total: number
  /** The registry counts no further than 10 000: show "10 000+". */
  capped: boolean
  establishments: LabelledEstablishment[]
}

/** The registry could not answer (rate limited beyond what we wait, down, or an answer we cannot read). */
export class RegistrySearchError extends Error {
  constructor(
    readonly code: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`registry search failed: ${code}`)
    this.name = 'RegistrySearchError'
  }
}

export interface RegistrySearchOptions {
  /** Default REGISTRY_URL, else the public registry. */
  baseUrl?: string
  /** The cache's database (and the default limiter's); default the app's pool. */
  pool?: Pick<pg.Pool, 'query'>
  /** Default: the deployment's budget for this registry on `pool`. */
  limiter?: RegistryLimiter
  /** Seconds an answer is reused; default one day, 0: never. */
  cacheSeconds?: number
  userAgent?: string
  fetch?: typeof fetch
  maxRetries?: number
  timeoutMs?: number
  retryBaseDelayMs?: number
  maxRetryAfterSeconds?: number
}

export interface RegistrySearchClient {
  /** One page (1-based) of `perPage` ≤ 25 establishments, with the registry's total. */
  page(filters: RegistryFilters, page: number, options?: { perPage?: number; signal?: AbortSignal }): Promise<RegistryPage>
  /** Up to `limit` establishments, page after page; a capped set is split by department, then by commune. */
  establishments(filters: RegistryFilters, options: { limit: number; signal?: AbortSignal }): AsyncGenerator<LabelledEstablishment>
}

interface Answer {
  results: unknown[]
  total_results: number | null
}

function labelled(establishment: RegistryEstablishment): LabelledEstablishment {
  return { ...establishment, activityLabel: nafLabel(establishment.activityCode), legalFormLabel: legalCategoryLabel(establishment.legalFormCode) }
}

/** The places a capped search splits into (splitPlan): departments of France or of a region, communes of a department. */
function childPlaces(place: RegistryPlace): string[] {
  const { departments, communes } = franceData()
  if (place.kind === 'france') return departments.map((d) => d.code)
  if (place.kind === 'region') return departments.filter((d) => d.region === place.code).map((d) => d.code)
  if (place.kind === 'department') return communes.filter((c) => c.departement === place.code).map((c) => c.code)
  return []
}

const LEGAL_FORM_CATALOGUE = Object.keys(LEGAL_CATEGORIES)

export function createRegistrySearchClient(options: RegistrySearchOptions = {}): RegistrySearchClient {
  const baseUrl = (options.baseUrl ?? env.REGISTRY_URL ?? PUBLIC_REGISTRY_URL).replace(/\/+$/, '')
  const pool = () => options.pool ?? getPool()
  const cache = createRegistryCache<Answer>(pool, options.cacheSeconds ?? DAY_SECONDS)
  let limiter = options.limiter
  const search = createRegistrySearch({
    baseUrl,
    // The same budget as the enrichment's lookups of this registry (default-enrichers.ts): one per host.
    limiter: {
      take: (registryClass, signal) => budget().take(registryClass, signal),
      pauseFor: (ms) => budget().pauseFor(ms),
    },
    registryClass: 'search',
    userAgent: options.userAgent ?? leadSourceUserAgent(env),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.retryBaseDelayMs !== undefined && { retryBaseDelayMs: options.retryBaseDelayMs }),
    ...(options.maxRetryAfterSeconds !== undefined && { maxRetryAfterSeconds: options.maxRetryAfterSeconds }),
  })
  function budget(): RegistryLimiter {
    if (!limiter) {
      // As default-enrichers.ts decides it for the enrichment: a local (allow-listed) registry is the demo one.
      const local = allowListFromEnv(env).map((host) => host.toLowerCase()).includes(registryLimiterKey(baseUrl))
      limiter = createRegistryLimiter({ pool: pool(), key: registryLimiterKey(baseUrl), requestsPerSecond: registryRequestsPerSecond(env, local) })
    }
    return limiter
  }
  const running = new SharedRequests<Answer>()

  /** One answer of the registry for `params`, from the cache when it has it. */
  async function answer(params: Record<string, string>, signal?: AbortSignal): Promise<Answer> {
    // The normalized query: the registry and its parameters in a fixed order (registryParams sorts them).
    const normalized = `${baseUrl}/search?${new URLSearchParams(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))).toString()}`
    const key = crypto.createHash('sha256').update(normalized).digest('base64url')
    const hit = await cache.get(key)
    if (hit) return hit
    return running.run(key, signal, async (shared) => {
      const attempt = await search(params, shared)
      if (attempt.kind === 'failed') throw new RegistrySearchError(attempt.error, attempt.retryAfterSeconds)
      const fresh: Answer = { results: attempt.results, total_results: attempt.totalResults ?? null }
      await cache.put(key, fresh)
      return fresh
    })
  }

  async function page(filters: RegistryFilters, pageNumber: number, pageOptions: { perPage?: number; signal?: AbortSignal } = {}): Promise<RegistryPage> {
    const params = registryParams(filters, { page: pageNumber, perPage: pageOptions.perPage, legalFormCatalogue: LEGAL_FORM_CATALOGUE })
    const body = await answer(params, pageOptions.signal)
    const establishments = body.results.map((result) => toRegistryEstablishment(result, filters)).filter((e): e is RegistryEstablishment => e !== null)
    // A registry that sends no total (the demo's older answers) is counted from what it sent.
    const { total, capped } = registryTotal(body.total_results ?? establishments.length)
    return { total, capped, establishments: establishments.map(labelled) }
  }

  async function* walk(filters: RegistryFilters, state: { left: number; seen: Set<string> }, signal?: AbortSignal): AsyncGenerator<LabelledEstablishment> {
    if (state.left <= 0) return
    const first = await page(filters, 1, { signal })
    if (first.capped && state.left > REGISTRY_RESULT_CAP) {
      const parts = splitPlan(filters, childPlaces(filters.place))
      if (parts) {
        for (const part of parts) yield* walk(part, state, signal)
        return
      }
    }
    const pages = pagesFor(first.total, REGISTRY_RESULT_CAP)
    for (let number = 1; number <= pages && state.left > 0; number++) {
      const current = number === 1 ? first : await page(filters, number, { signal })
      if (current.establishments.length === 0) return
      for (const establishment of current.establishments) {
        // A unit found in two parts of a split, or moved between two pages, is listed once.
        const id = establishment.siret ?? `siren:${establishment.siren}`
        if (state.seen.has(id)) continue
        state.seen.add(id)
        state.left--
        yield establishment
        if (state.left <= 0) return
      }
    }
  }

  return {
    page,
    establishments(filters, { limit, signal }) {
      return walk(filters, { left: Math.max(0, Math.floor(limit)), seen: new Set() }, signal)
    },
  }
}
