import { useTranslation } from 'react-i18next'
import { readMinimum } from '#app/domain/decimal.ts'
import { FILTER_FIELDS, MAX_RATING, MAX_REVIEWS, type FilterField } from '#app/domain/search-filters.ts'
import { Field } from '../ui/field.tsx'

/** The filters as the URL carries them (text, as typed), so a refused value is shown back in its field. */
export type FilterValues = Record<FilterField, string>

const CHECKBOXES = ['hasWebsite', 'hasPhone', 'excludeClosed', 'excludeInsolvent', 'excludeRadiated'] as const satisfies readonly FilterField[]

/**
 * "Filters" inside the search's GET form: a native <details>, so it opens without JavaScript, and the fields are
 * plain form fields, so they travel in the URL with the rest of the search. Open when any filter is set.
 */
export function SearchFiltersPanel({ values }: { values: FilterValues }) {
  const { t } = useTranslation()
  const active = FILTER_FIELDS.filter((field) => values[field] !== '').length
  // The minimums as the URL carries them, read by the filters' own rule (decimal.ts: the schema's zod stays out of
  // the page's first load): a refused one is named under its field.
  const errorsOf = (field: 'minRating' | 'minReviews', max: number, integer: boolean) =>
    readMinimum(values[field], max, integer) === 'invalid' ? [t(`search.filters.invalid.${field}`)] : undefined
  return (
    <details open={active > 0} className="group mt-5 rounded-xl ring-1 ring-slate-200" data-testid="search-filters">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <FilterIcon />
          {t('search.filters.title')}
          {active > 0 ? (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-200 ring-inset">
              {t('search.filters.activeCount', { count: active })}
            </span>
          ) : null}
        </span>
        <ChevronIcon />
      </summary>
      <div className="space-y-4 border-t border-slate-100 px-4 pt-4 pb-5">
        <p className="text-sm text-slate-500">{t('search.filters.hint')}</p>
        <div className="grid gap-x-6 gap-y-4 md:grid-cols-2 xl:grid-cols-4">
          <fieldset className="space-y-2.5 md:col-span-2">
            <legend className="sr-only">{t('search.filters.title')}</legend>
            {CHECKBOXES.map((field) => (
              <label key={field} className="flex items-center gap-2.5 text-sm text-slate-700">
                <input
                  type="checkbox"
                  name={field}
                  value="1"
                  defaultChecked={values[field] !== ''}
                  className="size-4 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                />
                {t(`search.filters.${field}`)}
              </label>
            ))}
            <p className="text-xs text-slate-500">{t('search.filters.riskHint')}</p>
          </fieldset>
          {/* Text with a decimal keypad, not type="number": a number field drops or mangles "4,2" (French decimals), and
              its built-in range check would block the search without a word. Both separators are read (decimal.ts). */}
          <Field
            label={t('search.filters.minRating')}
            hint={t('search.filters.minRatingHint')}
            errors={errorsOf('minRating', MAX_RATING, false)}
            inputProps={{ name: 'minRating', type: 'text', inputMode: 'decimal', autoComplete: 'off', defaultValue: values.minRating, className: 'sm:max-w-32' }}
          />
          <Field
            label={t('search.filters.minReviews')}
            errors={errorsOf('minReviews', MAX_REVIEWS, true)}
            inputProps={{ name: 'minReviews', type: 'text', inputMode: 'numeric', autoComplete: 'off', defaultValue: values.minReviews, className: 'sm:max-w-32' }}
          />
        </div>
      </div>
    </details>
  )
}

function FilterIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4 text-slate-400">
      <path d="M2.5 4.75A.75.75 0 0 1 3.25 4h13.5a.75.75 0 0 1 .53 1.28L12 10.56v4.69a.75.75 0 0 1-1.09.67l-2.5-1.25A.75.75 0 0 1 8 14V10.56L2.72 5.28a.75.75 0 0 1-.22-.53Z" />
    </svg>
  )
}

function ChevronIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4 text-slate-400 transition-transform group-open:rotate-180">
      <path fillRule="evenodd" d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z" clipRule="evenodd" />
    </svg>
  )
}
