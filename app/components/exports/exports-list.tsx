import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ariaSort, nextSort, sortSearch, type ExportSort, type ExportSortKey } from '#app/domain/export-list.ts'
import { formatDate } from '#app/utils/dates.ts'
import { cn } from '#app/utils/misc.ts'
import { ProgressBar, StatusBadge } from './status-badge.tsx'
import { numberFormat } from '#app/utils/number-format.ts'

/** One export as the list shows it (the loader's row). */
export interface ExportRow {
  id: string
  name: string
  status: string
  leadCount: number
  creditsUsed: number
  createdAt: string | null
  progress: number
}

function SortIcon({ direction }: { direction: 'asc' | 'desc' | null }) {
  return (
    <svg viewBox="0 0 12 16" className="size-3.5 shrink-0" fill="currentColor" aria-hidden="true">
      <path d="M6 1 10 6H2z" className={direction === 'asc' ? 'text-brand-600' : 'text-slate-300'} />
      <path d="M6 15 2 10h8z" className={direction === 'desc' ? 'text-brand-600' : 'text-slate-300'} />
    </svg>
  )
}

function SortHeader({ column, label, sort, searchParams, className }: { column: ExportSortKey; label: string; sort: ExportSort; searchParams: URLSearchParams; className?: string }) {
  const state = ariaSort(sort, column)
  return (
    <th scope="col" aria-sort={state === 'none' ? undefined : state} className={cn('px-4 py-2', className)}>
      <Link
        to={sortSearch(searchParams, nextSort(sort, column))}
        preventScrollReset
        className={cn(
          '-mx-1.5 inline-flex items-center gap-1 rounded-md px-1.5 py-1 uppercase hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600',
          state !== 'none' && 'text-slate-900',
        )}
      >
        {label}
        <SortIcon direction={state === 'ascending' ? 'asc' : state === 'descending' ? 'desc' : null} />
      </Link>
    </th>
  )
}

/** Wide screens: one row per export under sortable headers; the whole row is the link to the export. */
export function ExportsTable({ exports, sort, searchParams, language }: { exports: ExportRow[]; sort: ExportSort; searchParams: URLSearchParams; language: string }) {
  const { t } = useTranslation()
  const number = numberFormat(language)
  return (
    <div className="hidden overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:block">
      <table className="w-full table-fixed text-sm" data-testid="exports-list">
        <caption className="sr-only">{t('exports.title')}</caption>
        <colgroup>
          <col />
          <col className="w-44" />
          <col className="w-28" />
          <col className="w-36" />
          <col className="w-36" />
        </colgroup>
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500">
          <tr>
            <SortHeader column="name" label={t('exports.columns.name')} sort={sort} searchParams={searchParams} className="pl-5" />
            <SortHeader column="status" label={t('exports.columns.status')} sort={sort} searchParams={searchParams} />
            <th scope="col" className="px-4 py-2 text-right uppercase">
              {t('exports.columns.leads')}
            </th>
            <th scope="col" className="px-4 py-2 text-right uppercase">
              {t('exports.detail.creditsUsed')}
            </th>
            <SortHeader column="date" label={t('exports.columns.created')} sort={sort} searchParams={searchParams} className="pr-5 text-right" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {exports.map((item) => (
            <tr key={item.id} className="relative hover:bg-slate-50" data-testid="export-row">
              <td className="py-3.5 pr-4 pl-5">
                {/* The link's ::after covers the row, so the whole row is clickable while the name stays its label. */}
                <Link
                  to={`/exports/${item.id}`}
                  className="block truncate font-medium text-slate-900 after:absolute after:inset-0 after:rounded-sm focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-brand-600 focus-visible:after:ring-inset"
                  title={item.name}
                >
                  {item.name}
                </Link>
              </td>
              <td className="px-4 py-3.5">
                <StatusBadge status={item.status} />
                <ProgressBar percent={item.progress} className="mt-1.5 max-w-36" />
              </td>
              <td className="px-4 py-3.5 text-right text-slate-700 tabular-nums" data-column="leads">
                {number.format(item.leadCount)}
              </td>
              <td className="px-4 py-3.5 text-right text-slate-700 tabular-nums" data-column="credits">
                {number.format(item.creditsUsed)}
              </td>
              <td className="py-3.5 pr-5 pl-4 text-right whitespace-nowrap text-slate-500">{formatDate(item.createdAt, language, t)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Narrow screens: a card per export, each number with its label. */
export function ExportCards({ exports, language }: { exports: ExportRow[]; language: string }) {
  const { t } = useTranslation()
  const number = numberFormat(language)
  return (
    <ul className="space-y-3 md:hidden" data-testid="export-cards">
      {exports.map((item) => (
        <li key={item.id}>
          <Link
            to={`/exports/${item.id}`}
            className="block rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 font-medium break-words text-slate-900">{item.name}</p>
              <StatusBadge status={item.status} />
            </div>
            <ProgressBar percent={item.progress} className="mt-2" />
            <dl className="mt-3 grid grid-cols-3 gap-3 border-t border-slate-100 pt-3">
              <div>
                <dt className="text-xs text-slate-500">{t('exports.columns.leads')}</dt>
                <dd className="mt-0.5 text-sm font-medium text-slate-900 tabular-nums">{number.format(item.leadCount)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('exports.detail.creditsUsed')}</dt>
                <dd className="mt-0.5 text-sm font-medium text-slate-900 tabular-nums">{number.format(item.creditsUsed)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('exports.columns.created')}</dt>
                <dd className="mt-0.5 text-sm text-slate-700">{formatDate(item.createdAt, language, t)}</dd>
              </div>
            </dl>
          </Link>
        </li>
      ))}
    </ul>
  )
}
