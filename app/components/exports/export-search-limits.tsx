import { useTranslation } from 'react-i18next'
import { FILTER_FIELDS, type SearchFilters } from '#app/domain/search-filters.ts'
import { numberFormat } from '#app/utils/number-format.ts'

/** The filters and the lead cap an export was created with, as chips under its search (nothing when none). */
export function ExportSearchLimits({ filters, maxLeads }: { filters: SearchFilters; maxLeads: number | null }) {
  const { t, i18n } = useTranslation()
  const format = (value: number) => numberFormat(i18n.language).format(value)
  const chips = FILTER_FIELDS.flatMap((field) => {
    const value = filters[field]
    if (value === true) return [t(`search.filters.${field}`)]
    if (typeof value === 'number') return [`${t(`search.filters.${field}`)}${i18n.language === 'fr' ? ' : ' : ': '}${format(value)}`]
    return []
  })
  if (maxLeads !== null) chips.push(t('exports.detail.maxLeads', { formatted: format(maxLeads) }))
  if (chips.length === 0) return null
  return (
    <dd className="mt-2 flex flex-wrap gap-1.5" aria-label={t('exports.detail.filters')} data-testid="export-search-limits">
      {chips.map((chip) => (
        <span key={chip} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200 ring-inset">
          {chip}
        </span>
      ))}
    </dd>
  )
}
