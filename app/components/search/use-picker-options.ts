import { useEffect, useRef, useState } from 'react'
import { filterCategories, type CategoryOption } from '#app/domain/categories.ts'
import { levelsWithData, type LevelsWithData, type SearchCriteria } from '#app/domain/search.ts'
import { filterByMatch, normalizeForSearch } from '#app/domain/text.ts'

type LoadState<T> = { status: 'idle' | 'loading' | 'ready' | 'error'; items: T[]; message?: string }

/** In-memory cache shared by every picker on the page: categories per language for an hour (SPEC §9). */
const cache = new Map<string, { at: number; items: unknown[] }>()
const CATEGORY_TTL_MS = 60 * 60 * 1000
/** Pickers that read which levels have data re-render when a location list arrives. */
const locationListeners = new Set<() => void>()
let locationVersion = 0
export function subscribeLocations(listener: () => void) {
  locationListeners.add(listener)
  return () => {
    locationListeners.delete(listener)
  }
}

async function fetchJson<T>(url: string, signal: AbortSignal): Promise<T[]> {
  const response = await fetch(url, { signal, headers: { Accept: 'application/json' } })
  const body = await response.json().catch(() => null)
  if (!response.ok) throw new Error((body && (body.message || body.error)) || `HTTP ${response.status}`)
  return Array.isArray(body) ? (body as T[]) : []
}

export function useCategoryOptions(lang: string) {
  const [state, setState] = useState<LoadState<CategoryOption>>({ status: 'idle', items: [] })
  useEffect(() => {
    const key = `categories:${lang}`
    const hit = cache.get(key)
    if (hit && Date.now() - hit.at < CATEGORY_TTL_MS) {
      setState({ status: 'ready', items: hit.items as CategoryOption[] })
      return
    }
    const controller = new AbortController()
    setState({ status: 'loading', items: [] })
    // With the search keys: the picker matches both languages' labels and the presets' terms.
    fetchJson<CategoryOption>(`/api/categories?lang=${lang}&include=terms`, controller.signal)
      .then((items) => {
        cache.set(key, { at: Date.now(), items })
        setState({ status: 'ready', items })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        // SPEC §8: a category fetch failure is logged and the list stays empty.
        console.error('Failed to load categories', error)
        setState({ status: 'error', items: [] })
      })
    return () => controller.abort()
  }, [lang])
  return state
}

export function filterCategoryOptions(options: CategoryOption[], query: string) {
  return filterCategories(options, query, { limit: 50 })
}

export interface LocationOption {
  name: string
  code?: string
}

/**
 * Options of one location level. Loads only when `enabled` (its parents are chosen); a fetch
 * error gives an empty list and the error text (SPEC §7, §8). Cities are re-queried as the
 * user types, since the server returns the first 100 matches.
 */
export function useLocationOptions(params: { type: string; countryName?: string; regionName?: string; departmentName?: string; lang: string; enabled: boolean; query: string }) {
  const [state, setState] = useState<LoadState<LocationOption>>({ status: 'idle', items: [] })
  const serverQuery = params.type === 'city' ? params.query : ''
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    if (!params.enabled) {
      setState({ status: 'idle', items: [] })
      return
    }
    const url = locationsUrl({
      type: params.type,
      countryName: params.countryName,
      regionName: params.regionName,
      departmentName: params.departmentName,
      lang: params.lang,
      query: serverQuery,
    })
    const hit = cache.get(url)
    if (hit) {
      setState({ status: 'ready', items: hit.items as LocationOption[] })
      return
    }
    const controller = new AbortController()
    clearTimeout(debounce.current)
    debounce.current = setTimeout(
      () => {
        setState((previous) => ({ status: 'loading', items: previous.items }))
        fetchJson<LocationOption>(url, controller.signal)
          .then((items) => {
            cache.set(url, { at: Date.now(), items })
            locationVersion++
            for (const listener of locationListeners) listener()
            setState({ status: 'ready', items })
          })
          .catch((error: unknown) => {
            if (controller.signal.aborted) return
            setState({ status: 'error', items: [], message: error instanceof Error ? error.message : undefined })
          })
      },
      serverQuery ? 200 : 0,
    )
    return () => {
      controller.abort()
      clearTimeout(debounce.current)
    }
  }, [params.enabled, params.type, params.countryName, params.regionName, params.departmentName, params.lang, serverQuery])
  return state
}

interface LocationsRequest {
  type: string
  countryName?: string
  regionName?: string
  departmentName?: string
  lang: string
  query?: string
}

function locationsUrl(params: LocationsRequest): string {
  const search = new URLSearchParams({ type: params.type, lang: params.lang })
  if (params.countryName) search.set('countryName', params.countryName)
  if (params.regionName) search.set('regionName', params.regionName)
  if (params.departmentName) search.set('departmentName', params.departmentName)
  if (params.query) search.set('query', params.query)
  return `/api/locations?${search}`
}

/**
 * Which levels have data for the chosen country and region, as far as the pickers have loaded
 * them (a level still loading is left unknown), for the plan rule checked before submitting.
 */
export function knownLocationLevels(criteria: SearchCriteria, lang: string): LevelsWithData {
  const loaded = (request: Omit<LocationsRequest, 'lang'>) => cache.get(locationsUrl({ ...request, lang }))?.items.length
  return levelsWithData({
    region: criteria.country ? loaded({ type: 'region', countryName: criteria.country }) : undefined,
    department: criteria.country && criteria.region ? loaded({ type: 'department', countryName: criteria.country, regionName: criteria.region }) : undefined,
  })
}

/** Changes each time a location list arrives (useSyncExternalStore's snapshot). */
export function locationsVersion(): number {
  return locationVersion
}

/** The loaded options matching what is typed, as the server filters them (filterByMatch). */
export function filterLocations(items: LocationOption[], query: string) {
  return filterByMatch(items, (item) => normalizeForSearch(item.name), query)
}
