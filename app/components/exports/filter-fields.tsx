import { FILTER_FIELDS } from '#app/domain/search-filters.ts'
import type { FilterValues } from '../search/search-filters-panel.tsx'

/** The search's filters as hidden fields of the export command: the export keeps what the preview applied. */
export function FilterFields({ values }: { values: FilterValues }) {
  return (
    <>
      {FILTER_FIELDS.filter((field) => values[field] !== '').map((field) => (
        <input key={field} type="hidden" name={field} value={values[field]} />
      ))}
    </>
  )
}
