import { hasFilters, type SearchFilters } from '#app/domain/search-filters.ts'

/** The filters a saved search keeps (stored as the search page read them), or null when none is set. */
export function storedFilters(stored: Record<string, unknown>): SearchFilters | null {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null)
  const filters: SearchFilters = {
    hasWebsite: stored.hasWebsite === true,
    hasPhone: stored.hasPhone === true,
    minRating: number(stored.minRating),
    minReviews: number(stored.minReviews),
    excludeClosed: stored.excludeClosed === true,
  }
  return hasFilters(filters) ? filters : null
}
