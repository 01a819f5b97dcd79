import { useTranslation } from 'react-i18next'
import type { PreviewLead } from '#app/domain/search.ts'
import { Alert } from '../ui/alert.tsx'
import { Reviews } from './reviews.tsx'
import { ChipList } from '../ui/chips.tsx'

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
  return <ChipList items={types} max={MAX_CHIPS} />
}

function HiddenWebsite() {
  const { t } = useTranslation()
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap text-slate-500">
      <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
        <rect x="4" y="9" width="12" height="8" rx="1.5" />
        <path d="M7 9V6.5a3 3 0 0 1 6 0V9" />
      </svg>
      {t('search.websiteHidden')}
    </span>
  )
}

/** The preview: a table from `md`, one card per business below it (nothing to scroll sideways on a phone). */
export function ResultsTable({ results }: { results: PreviewLead[] }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="hidden overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:block">
        <div className="scroll-x rounded-2xl focus-visible:outline-offset-[-2px]" tabIndex={0} role="region" aria-label={t('search.results')}>
          <table className="w-full text-sm">
            <caption className="sr-only">{t('search.results')}</caption>
            <thead className="border-b border-slate-200 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="scroll-x-sticky sticky left-0 z-10 bg-slate-50 py-3 pr-3 pl-5">{t('search.columns.name')}</th>
                <th scope="col" className="bg-slate-50 px-3 py-3">{t('search.columns.address')}</th>
                <th scope="col" className="bg-slate-50 px-3 py-3">{t('search.columns.categories')}</th>
                <th scope="col" className="bg-slate-50 px-3 py-3">{t('search.columns.website')}</th>
                <th scope="col" className="bg-slate-50 py-3 pr-5 pl-3">{t('search.columns.reviews')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {results.map((lead) => (
                <tr key={lead.id} className="align-top">
                  <td className="scroll-x-sticky sticky left-0 z-10 max-w-64 min-w-40 bg-white py-3 pr-3 pl-5 font-medium break-words text-slate-900">{lead.name}</td>
                  <td className="min-w-48 px-3 py-3 text-slate-600">{lead.address ?? '—'}</td>
                  <td className="min-w-32 px-3 py-3">
                    <CategoryChips types={lead.businessTypes} />
                  </td>
                  <td className="px-3 py-3">
                    <HiddenWebsite />
                  </td>
                  <td className="py-3 pr-5 pl-3">
                    <Reviews rating={lead.rating} count={lead.reviewCount} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <ul className="space-y-3 md:hidden" aria-label={t('search.results')} data-testid="result-cards">
        {results.map((lead) => (
          <li key={lead.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="result-card">
            <p className="font-semibold break-words text-slate-900">{lead.name}</p>
            <p className="mt-0.5 text-sm text-slate-600">{lead.address ?? '—'}</p>
            {lead.businessTypes.length ? (
              <div className="mt-2">
                <CategoryChips types={lead.businessTypes} />
              </div>
            ) : null}
            <div className="mt-3 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-slate-100 pt-3 text-sm">
              <Reviews rating={lead.rating} count={lead.reviewCount} />
              <span className="text-xs">
                <span className="sr-only">{t('search.columns.website')}: </span>
                <HiddenWebsite />
              </span>
            </div>
          </li>
        ))}
      </ul>
    </>
  )
}
