import { useTranslation } from 'react-i18next'
import type { PreviewLead } from '#app/domain/search.ts'
import { Alert } from '../ui/alert.tsx'
import { Reviews } from './reviews.tsx'

const MAX_CHIPS = 2

export function ResultsSkeleton() {
  const { t } = useTranslation()
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" aria-busy="true" aria-live="polite">
      <p className="sr-only">{t('search.searching')}</p>
      <div className="divide-y divide-slate-100">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="flex animate-pulse items-center gap-4 px-5 py-4">
            <div className="h-4 w-1/4 rounded bg-slate-200" />
            <div className="h-4 w-1/3 rounded bg-slate-100" />
            <div className="h-4 w-1/6 rounded bg-slate-100" />
            <div className="ml-auto h-4 w-16 rounded bg-slate-100" />
          </div>
        ))}
      </div>
    </div>
  )
}

export function EmptyResults({ titleKey, bodyKey }: { titleKey: string; bodyKey: string }) {
  const { t } = useTranslation()
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <p className="text-base font-semibold text-slate-900">{t(titleKey)}</p>
      <p className="mt-1 text-sm text-slate-600">{t(bodyKey)}</p>
    </div>
  )
}

export function SearchError({ message }: { message: string }) {
  const { t } = useTranslation()
  return <Alert tone="error" title={t('search.errorTitle')}>{message || t('common.error')}</Alert>
}

export function CategoryChips({ types }: { types: string[] }) {
  const { t } = useTranslation()
  const shown = types.slice(0, MAX_CHIPS)
  const rest = types.length - shown.length
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((type) => (
        <span key={type} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
          {type}
        </span>
      ))}
      {rest > 0 ? <span className="rounded-md bg-slate-50 px-1.5 py-0.5 text-xs text-slate-500">{t('search.moreCategories', { count: rest })}</span> : null}
    </span>
  )
}

export function ResultsTable({ results }: { results: PreviewLead[] }) {
  const { t } = useTranslation()
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t('search.results')}</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-5 py-3">{t('search.columns.name')}</th>
              <th scope="col" className="px-5 py-3">{t('search.columns.address')}</th>
              <th scope="col" className="px-5 py-3">{t('search.columns.categories')}</th>
              <th scope="col" className="px-5 py-3">{t('search.columns.website')}</th>
              <th scope="col" className="px-5 py-3">{t('search.columns.reviews')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {results.map((lead) => (
              <tr key={lead.id} className="align-top hover:bg-slate-50/60">
                <td className="px-5 py-3 font-medium text-slate-900">{lead.name}</td>
                <td className="min-w-48 px-5 py-3 text-slate-600">{lead.address ?? '—'}</td>
                <td className="px-5 py-3">
                  <CategoryChips types={lead.businessTypes} />
                </td>
                <td className="px-5 py-3 whitespace-nowrap text-slate-500">
                  <span className="inline-flex items-center gap-1.5">
                    <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
                      <rect x="4" y="9" width="12" height="8" rx="1.5" />
                      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" />
                    </svg>
                    {t('search.websiteHidden')}
                  </span>
                </td>
                <td className="px-5 py-3">
                  <Reviews rating={lead.rating} count={lead.reviewCount} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
