import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, isRouteErrorResponse, Link, useNavigation, useRevalidator, useSearchParams } from 'react-router'
import type { Route } from './+types/exports'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { listExports } from '#app/.server/exports/views.ts'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { ProgressBar, StatusBadge } from '#app/components/exports/status-badge.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { EXPORT_STATUSES, type ExportStatus } from '#app/domain/enrichment.ts'
import { ariaSort, nextSort, parseExportSort, SORT_CHOICES, sortSearch, sortValue, type ExportSort, type ExportSortKey } from '#app/domain/export-list.ts'
import { formatDate } from '#app/utils/dates.ts'
import { cn } from '#app/utils/misc.ts'

export const handle: AppHandle = { titleKey: 'pages.exports' }

const FILTERS = ['all', 'completed', 'processing', 'pending', 'failed', 'interrupted'] as const

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const requested = url.searchParams.get('status') ?? 'all'
  const status = (EXPORT_STATUSES as readonly string[]).includes(requested) ? (requested as ExportStatus) : undefined
  if (requested !== 'all' && !status) throw data({ error: 'Unknown status' }, { status: 400 })
  const sort = parseExportSort(url.searchParams)
  const { exports, page, pageCount, running } = await listExports(user, status, sort, Number(url.searchParams.get('page') ?? '1'))
  return { exports, status: status ?? 'all', sort, running, page, pageCount }
}

export default function ExportsRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const filtering = navigation.state === 'loading' && navigation.location.pathname === '/exports'
  const { exports, status, sort, running, page, pageCount } = loaderData
  const notice = searchParams.get('deleted') === '1' ? t('exports.detail.deleted') : null
  const submit = (event: React.ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit()
  const selectClasses =
    'mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none sm:w-48'
  return (
    <section className="mx-auto max-w-6xl space-y-6">
      <AutoRefresh active={running} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('exports.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('exports.subtitle')}</p>
        </div>
        <Link to="/" className={buttonClasses()}>
          {t('exports.newExport')}
        </Link>
      </div>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t('exportsList.controls')}>
        <div className="min-w-0 flex-1 sm:flex-none">
          <label htmlFor="status-filter" className="block text-sm font-medium text-slate-700">
            {t('exports.filterLabel')}
          </label>
          <select id="status-filter" name="status" defaultValue={status} key={status} onChange={submit} className={selectClasses}>
            {FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {t(`exports.filter.${filter}`)}
              </option>
            ))}
          </select>
        </div>
        {/* Narrow screens have no column headers to click: the order is a select there. Hidden on wider screens, it
            still carries the current order when the status filter is submitted. */}
        <div className="min-w-0 flex-1 sm:flex-none md:hidden">
          <label htmlFor="sort-select" className="block text-sm font-medium text-slate-700">
            {t('exportsList.sortLabel')}
          </label>
          <select id="sort-select" name="sort" defaultValue={sortValue(sort)} key={sortValue(sort)} onChange={submit} className={selectClasses}>
            {SORT_CHOICES.map((choice) => (
              <option key={sortValue(choice)} value={sortValue(choice)}>
                {t(`exportsList.sortChoices.${sortValue(choice)}`)}
              </option>
            ))}
          </select>
        </div>
        <noscript>
          <Button type="submit" variant="secondary">
            {t('exports.apply')}
          </Button>
        </noscript>
        {filtering ? <Spinner className="mb-2.5 size-5 text-brand-600" label={t('app.loading')} /> : null}
      </Form>
      {exports.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          {status === 'all' ? (
            <>
              <p className="text-base font-semibold text-slate-900">{t('exports.empty')}</p>
              <p className="mt-1 text-sm text-slate-600">{t('exports.emptyBody')}</p>
              <Link to="/" className={buttonClasses({ className: 'mt-6' })}>
                {t('exports.newExport')}
              </Link>
            </>
          ) : (
            <>
              <p className="text-base font-semibold text-slate-900">{t('exports.emptyFiltered')}</p>
              <Link to="/exports" className={buttonClasses({ variant: 'secondary', className: 'mt-6' })}>
                {t('exports.clearFilter')}
              </Link>
            </>
          )}
        </div>
      ) : (
        <>
          <ExportsTable exports={exports} sort={sort} searchParams={searchParams} language={i18n.language} />
          <ExportCards exports={exports} language={i18n.language} />
        </>
      )}
      {pageCount > 1 ? <ExportsPager page={page} pageCount={pageCount} searchParams={searchParams} /> : null}
      {running ? <p className="text-xs text-slate-500">{t('exports.autoRefresh')}</p> : null}
    </section>
  )
}

type ExportRow = Route.ComponentProps['loaderData']['exports'][number]

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
function ExportsTable({ exports, sort, searchParams, language }: { exports: ExportRow[]; sort: ExportSort; searchParams: URLSearchParams; language: string }) {
  const { t } = useTranslation()
  const number = new Intl.NumberFormat(language)
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
function ExportCards({ exports, language }: { exports: ExportRow[]; language: string }) {
  const { t } = useTranslation()
  const number = new Intl.NumberFormat(language)
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

/** Previous / Next as plain links (they work without JavaScript), keeping the filter and the order. */
function ExportsPager({ page, pageCount, searchParams }: { page: number; pageCount: number; searchParams: URLSearchParams }) {
  const { t } = useTranslation()
  const href = (target: number) => {
    const next = new URLSearchParams(searchParams)
    next.delete('deleted')
    next.set('page', String(target))
    return `/exports?${next}`
  }
  const linkClass = buttonClasses({ variant: 'secondary' })
  return (
    <nav className="flex items-center justify-between gap-3" aria-label={t('exportsPaging.label')}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass}>
          {t('exports.detail.previous')}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-600">{t('exports.detail.pageOf', { page, pages: pageCount })}</p>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass}>
          {t('exports.detail.next')}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}

/** "Error loading exports" with a try-again button whose spinner runs 1 s (SPEC §8, §9). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const revalidator = useRevalidator()
  const [retrying, setRetrying] = useState(false)
  useEffect(() => {
    if (!retrying) return
    const timer = setTimeout(() => {
      setRetrying(false)
      void revalidator.revalidate()
    }, 1000)
    return () => clearTimeout(timer)
  }, [retrying, revalidator])
  if (isRouteErrorResponse(error) && error.status === 400) {
    return (
      <section className="mx-auto max-w-6xl">
        <Alert tone="error" title={t('exports.errorTitle')}>
          {t('errorPage.badRequest')}{' '}
          <Link to="/exports" className="font-medium underline">
            {t('exports.clearFilter')}
          </Link>
        </Alert>
      </section>
    )
  }
  return (
    <section className="mx-auto max-w-6xl">
      <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200" role="alert">
        <h1 className="text-lg font-semibold text-slate-900">{t('exports.errorTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('exports.loadFailed')}</p>
        <Form method="get" action="/exports" onSubmit={(event) => (event.preventDefault(), setRetrying(true))} className="mt-6">
          <Button type="submit" pending={retrying}>
            {t('common.tryAgain')}
          </Button>
        </Form>
      </div>
    </section>
  )
}
