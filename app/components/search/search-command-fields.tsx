import { useLocation } from 'react-router'
import type { SearchCriteria } from '#app/domain/search.ts'
import { FilterFields } from '../exports/filter-fields.tsx'
import type { FilterValues } from './search-filters-panel.tsx'

/** The search a command from the search page acts on (export, save): its place, category and filters, as hidden fields. */
export function SearchCommandFields({ criteria, filters }: { criteria: SearchCriteria; filters: FilterValues }) {
  return (
    <>
      <FilterFields values={filters} />
      {(['sector', 'country', 'region', 'department', 'city'] as const).map((key) => (
        <input key={key} type="hidden" name={key} value={criteria[key]} />
      ))}
    </>
  )
}

/** The search page's own URL as its index route's action: without JavaScript a refused post renders the search and the dialog again. */
export function useSearchPageAction() {
  const location = useLocation()
  const pageSearch = new URLSearchParams(location.search)
  pageSearch.delete('index') // already there after a no-JS post
  return `/?index${pageSearch.size ? `&${pageSearch}` : ''}`
}
