/**
 * Ordering of the exports list (/exports). The order lives in the URL (`?sort=name-asc`) so headers are plain
 * GET links: sorting works without JavaScript, survives reloads and can be shared. Pure: no I/O.
 * One parameter carries key and direction (`?sort=name-asc`), so the mobile sort select and the header links say
 * the same thing.
 */

const EXPORT_SORT_KEYS = ['date', 'name', 'status'] as const
export type ExportSortKey = (typeof EXPORT_SORT_KEYS)[number]
type SortDirection = 'asc' | 'desc'
export interface ExportSort {
  key: ExportSortKey
  direction: SortDirection
}

/** The direction a column starts in when first chosen: newest dates, A→Z names, unfinished statuses first. */
const FIRST_DIRECTION: Record<ExportSortKey, SortDirection> = { date: 'desc', name: 'asc', status: 'asc' }

export const DEFAULT_EXPORT_SORT: ExportSort = { key: 'date', direction: 'desc' }

/**
 * Status order when ascending: what still needs attention (running, then stopped ones a user may resume or retry)
 * before what is done — alphabetical codes would mean nothing in French.
 */
export const STATUS_ORDER = ['processing', 'pending', 'interrupted', 'failed', 'completed'] as const

/** Unknown or missing values fall back to the default order rather than failing the page. */
export function parseExportSort(params: URLSearchParams): ExportSort {
  const [key, order] = (params.get('sort') ?? '').split('-')
  if (!key || !(EXPORT_SORT_KEYS as readonly string[]).includes(key)) return DEFAULT_EXPORT_SORT
  const direction = order === 'asc' || order === 'desc' ? order : FIRST_DIRECTION[key as ExportSortKey]
  return { key: key as ExportSortKey, direction }
}

export function sortValue(sort: ExportSort): string {
  return `${sort.key}-${sort.direction}`
}

/** Every order, for the sort select shown where the column headers are not (narrow screens). */
export const SORT_CHOICES: ExportSort[] = EXPORT_SORT_KEYS.flatMap((key) => {
  const first = FIRST_DIRECTION[key]
  return [
    { key, direction: first },
    { key, direction: first === 'asc' ? 'desc' : 'asc' },
  ]
})

/** The column's link target: the other direction when it is already the sort, else its first direction. */
export function nextSort(current: ExportSort, key: ExportSortKey): ExportSort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
  return { key, direction: FIRST_DIRECTION[key] }
}

/** Query string for a sort, keeping the other parameters (the status filter) and dropping one-off notices. */
export function sortSearch(params: URLSearchParams, sort: ExportSort): string {
  const next = new URLSearchParams(params)
  next.delete('deleted')
  next.delete('page') // a new order starts from its first page
  next.set('sort', sortValue(sort))
  return `?${next.toString()}`
}

export function ariaSort(current: ExportSort, key: ExportSortKey): 'ascending' | 'descending' | 'none' {
  if (current.key !== key) return 'none'
  return current.direction === 'asc' ? 'ascending' : 'descending'
}
