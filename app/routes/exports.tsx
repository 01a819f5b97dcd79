import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, isRouteErrorResponse, Link, useNavigation, useRevalidator, useSearchParams } from 'react-router'
import type { Route } from './+types/exports'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { listExports } from '#app/.server/export-views.ts'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { ProgressBar, StatusBadge } from '#app/components/exports/status-badge.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { EXPORT_STATUSES, type ExportStatus } from '#app/domain/enrichment.ts'
import { formatDate } from '#app/utils/dates.ts'

export const handle: AppHandle = { titleKey: 'pages.exports' }

const FILTERS = ['all', 'completed', 'processing', 'pending', 'failed', 'interrupted'] as const

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const requested = url.searchParams.get('status') ?? 'all'
  const status = (EXPORT_STATUSES as readonly string[]).includes(requested) ? (requested as ExportStatus) : undefined
  if (requested !== 'all' && !status) throw data({ error: 'Unknown status' }, { status: 400 })
  const { exports, page, pageCount, running } = await listExports(user, status, Number(url.searchParams.get('page') ?? '1'))
  return { exports, status: status ?? 'all', running, page, pageCount }
}

export default function ExportsRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const filtering = navigation.state === 'loading' && navigation.location.pathname === '/exports'
  const { exports, status, running, page, pageCount } = loaderData
  const notice = searchParams.get('deleted') === '1' ? t('exports.detail.deleted') : null
  const number = new Intl.NumberFormat(i18n.language)
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
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t('exports.filterLabel')}>
        <div>
          <label htmlFor="status-filter" className="block text-sm font-medium text-slate-700">
            {t('exports.filterLabel')}
          </label>
          <select
            id="status-filter"
            name="status"
            defaultValue={status}
            key={status}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className="mt-1.5 block w-48 rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
          >
            {FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {t(`exports.filter.${filter}`)}
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
        <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" data-testid="exports-list">
          {exports.map((item) => (
            <li key={item.id}>
              <Link to={`/exports/${item.id}`} className="grid gap-3 px-5 py-4 hover:bg-slate-50 sm:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))] sm:items-center">
                <div className="min-w-0">
                  <div className="flex items-center gap-2">
                    <p className="truncate font-medium text-slate-900">{item.name}</p>
                    <StatusBadge status={item.status} />
                  </div>
                  <ProgressBar percent={item.progress} className="mt-2 max-w-xs" />
                </div>
                <p className="text-sm text-slate-600">{t('exports.leadCount', { count: item.leadCount, formatted: number.format(item.leadCount) })}</p>
                <p className="text-sm text-slate-600">{t('exports.creditsUsed', { count: item.creditsUsed })}</p>
                <p className="text-sm text-slate-500 sm:text-right">{formatDate(item.createdAt, i18n.language, t)}</p>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? <ExportsPager page={page} pageCount={pageCount} status={status} /> : null}
      {running ? <p className="text-xs text-slate-500">{t('exports.autoRefresh')}</p> : null}
    </section>
  )
}

/** Previous / Next as plain links (they work without JavaScript), keeping the status filter. */
function ExportsPager({ page, pageCount, status }: { page: number; pageCount: number; status: string }) {
  const { t } = useTranslation()
  const href = (target: number) => `/exports?${new URLSearchParams({ ...(status === 'all' ? {} : { status }), page: String(target) })}`
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
