import { useTranslation } from 'react-i18next'
import { data, Form, isRouteErrorResponse, Link, redirect, useActionData, useLocation, useSearchParams } from 'react-router'
import type { Route } from './+types/export-detail'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getExportDetail } from '#app/.server/exports/views.ts'
import { isUuid } from '#app/domain/ids.ts'
import { addEnrichment, deleteExport, resumeExport } from '#app/.server/exports/service.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { AddEnrichmentModal } from '#app/components/exports/add-enrichment-modal.tsx'
import { DownloadMenu } from '#app/components/exports/download-menu.tsx'
import { LeadsTable } from '#app/components/exports/leads-table.tsx'
import { ProgressBar, StatusBadge } from '#app/components/exports/status-badge.tsx'
import { ErrorAlert, PlansLink } from '#app/components/billing/plans-link.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Disclosure, rowMenu } from '#app/components/ui/disclosure.tsx'
import { Icon } from '#app/components/layout/icons.tsx'
import { CloseIcon, Modal } from '#app/components/ui/modal.tsx'
import { ENRICHMENT_TYPES, selectedTypes, type EnrichmentType } from '#app/domain/enrichment.ts'
import { errorNeedsPlans } from '#app/domain/exports.ts'
import { formatDate } from '#app/utils/dates.ts'
import { exportErrorMessageKey } from '#app/utils/export-errors.ts'
import { useIsPending } from '#app/utils/misc.ts'

export const handle: AppHandle = { titleKey: 'pages.exportDetail' }

const RUNNING = new Set(['pending', 'processing'])

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const detail = isUuid(params.id) ? await getExportDetail(user, params.id, page) : null
  if (!detail) throw data({ message: 'Export not found' }, { status: 404 })
  // The stored sector is a category id (or free text): show its label in the interface language.
  const category = detail.searchParams.sector ? getCategory(detail.searchParams.sector) : null
  const sectorLabel = category ? labelOf(category, getLocale(context) === 'fr' ? 'fr' : 'en') : detail.searchParams.sector
  return { detail: { ...detail, searchParams: { ...detail.searchParams, sector: sectorLabel } }, userId: user.id }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  const intent = formData.get('intent')
  const exportId = params.id
  if (!isUuid(exportId)) return data({ intent, error: t('exports.errors.notFound') }, { status: 404 })
  switch (intent) {
    case 'resume': {
      const result = await resumeExport({ user, exportId })
      if (!result.ok) return data({ intent, code: result.code, error: t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.resumeFailed')) }, { status: result.status })
      return redirect(`/exports/${exportId}?resumed=1`)
    }
    case 'add-enrichment': {
      const options = formData.getAll('options').filter((value): value is EnrichmentType => (ENRICHMENT_TYPES as readonly string[]).includes(String(value)))
      const result = await addEnrichment({ user, exportId, options })
      if (!result.ok) {
        // SPEC §8: out of credits gets its own explanation.
        const key = result.code === 'insufficient_credits' ? 'exports.errors.noCreditsLeft' : (result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.addFailed'))
        return data({ intent, code: result.code, error: t(key) }, { status: result.status })
      }
      return redirect(`/exports/${exportId}?added=1`)
    }
    case 'delete': {
      const result = await deleteExport({ user, exportId })
      if (!result.ok) return data({ intent, error: t(exportErrorMessageKey(result.code, 'exports.errors.deleteFailed')) }, { status: result.status })
      return redirect('/exports?deleted=1')
    }
    default:
      return data({ intent, error: t('errorPage.badRequest') }, { status: 400 })
  }
}

function searchSummary(params: { sector?: string; city?: string; department?: string; region?: string; country?: string }, t: (key: string) => string) {
  const places = [params.city, params.department, params.region, params.country].filter(Boolean)
  return { sector: params.sector || t('exports.detail.allSectors'), place: places.length ? places.join(', ') : t('exports.detail.allCountries') }
}

export default function ExportDetailRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const { detail } = loaderData
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const actionData = useActionData<typeof action>()
  const running = RUNNING.has(detail.status) || !['completed', 'failed', 'interrupted'].includes(detail.status)
  const chosen = selectedTypes(detail.enrichmentOptions)
  const summary = searchSummary(detail.searchParams, t)
  const base = `/exports/${detail.id}`
  const canDownload = ['completed', 'interrupted', 'failed'].includes(detail.status)
  const canAdd = detail.status === 'completed'
  const showDelete = searchParams.get('delete') === '1' || actionData?.intent === 'delete'
  const showAdd = (searchParams.get('add') === '1' || actionData?.intent === 'add-enrichment') && canAdd
  const number = new Intl.NumberFormat(i18n.language)
  const notice = searchParams.get('resumed') === '1' ? t('exports.detail.resumed') : searchParams.get('added') === '1' ? t('exports.detail.enrichmentAdded') : null
  const pageHref = (page: number) => `${base}?page=${page}`
  return (
    <section className="mx-auto max-w-7xl space-y-6">
      <AutoRefresh active={running} />
      <Link to="/exports" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
        <span aria-hidden="true">←</span> {t('exports.detail.back')}
      </Link>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-semibold break-words text-slate-900">{detail.name}</h1>
            <StatusBadge status={detail.status} />
            {detail.isDemo ? (
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300 ring-inset">{t('app.demoData')}</span>
            ) : null}
          </div>
          <p className="mt-1 text-sm text-slate-500">{t('exports.detail.createdOn', { date: formatDate(detail.createdAt, i18n.language, t, 'dateTime') })}</p>
        </div>
        <div className="relative flex flex-wrap gap-2 lg:shrink-0 lg:flex-nowrap">
          {canDownload ? (
            <DownloadMenu exportId={detail.id} userId={loaderData.userId} />
          ) : null}
          {canAdd ? (
            <Link to={`${base}?add=1`} className={buttonClasses({ variant: 'secondary' })} preventScrollReset>
              {t('exports.detail.addEnrichment')}
            </Link>
          ) : null}
          <Disclosure
            className={rowMenu.details}
            label={
              <span className={buttonClasses({ variant: 'secondary' })}>
                {t('exports.detail.actions')}
                <Icon name="chevronDown" className="size-4 text-slate-400" />
              </span>
            }
            panelClassName={rowMenu.panel}
          >
            <Link to={`${base}?delete=1`} preventScrollReset className="block rounded-lg px-2.5 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:bg-red-50">
              {t('exports.detail.delete')}
            </Link>
          </Disclosure>
        </div>
      </div>

      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {actionData?.error && !showDelete && !showAdd ? <ErrorAlert message={actionData.error} withPlansLink={'code' in actionData && errorNeedsPlans(actionData.code)} /> : null}

      {detail.status === 'interrupted' && detail.canResume ? (
        <div className="flex flex-col gap-3 rounded-2xl bg-amber-50 p-5 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between" role="status">
          <div>
            <p className="font-semibold text-amber-900">{t('exports.detail.interruptedTitle')}</p>
            <p className="mt-1 text-sm text-amber-800">
              {t('exports.detail.interruptedBody')} <PlansLink />
            </p>
          </div>
          <ResumeButton />
        </div>
      ) : null}

      <dl className="grid gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.search')}</dt>
          <dd className="mt-1 text-sm text-slate-900">
            <span className="font-medium">{summary.sector}</span> · {summary.place}
          </dd>
          <dd className="mt-3 flex flex-wrap gap-1.5" aria-label={t('exports.detail.enrichments')}>
            {chosen.map((type) => (
              <span key={type} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-200 ring-inset">
                {t(`exports.options.${type}`)}
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.leads')}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="lead-count">{number.format(detail.leadCount)}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.creditsUsed')}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="credits-used">{number.format(detail.creditsUsed)}</dd>
          <dd className="mt-2">
            <ProgressBar percent={detail.progress} />
          </dd>
        </div>
      </dl>

      {detail.totalLeads === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-sm text-slate-600">{t('exports.detail.noLeads')}</div>
      ) : (
        <div className="space-y-3">
          <LeadsTable leads={detail.leads} chosen={chosen} />
          <nav className="flex items-center justify-between gap-3" aria-label={t('exports.detail.pageOf', { page: detail.page, pages: detail.pageCount })}>
            <p className="text-sm text-slate-600">
              {t('exports.detail.showing', {
                from: number.format((detail.page - 1) * 10 + 1),
                to: number.format(Math.min(detail.page * 10, detail.totalLeads)),
                total: number.format(detail.totalLeads),
              })}
            </p>
            <div className="flex gap-2">
              {detail.page > 1 ? (
                <Link to={pageHref(detail.page - 1)} className={buttonClasses({ variant: 'secondary', size: 'sm' })} rel="prev">
                  {t('exports.detail.previous')}
                </Link>
              ) : (
                <span className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'pointer-events-none opacity-50' })} aria-disabled="true">
                  {t('exports.detail.previous')}
                </span>
              )}
              {detail.page < detail.pageCount ? (
                <Link to={pageHref(detail.page + 1)} className={buttonClasses({ variant: 'secondary', size: 'sm' })} rel="next">
                  {t('exports.detail.next')}
                </Link>
              ) : (
                <span className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'pointer-events-none opacity-50' })} aria-disabled="true">
                  {t('exports.detail.next')}
                </span>
              )}
            </div>
          </nav>
        </div>
      )}

      {showDelete ? (
        <DeleteModal running={running} closeHref={location.pathname} error={actionData?.intent === 'delete' ? actionData.error : undefined} />
      ) : null}
      {showAdd ? (
        <AddEnrichmentModal
          already={detail.enrichmentOptions}
          france={(detail.searchParams.country ?? '').toLowerCase() === 'france'}
          closeHref={location.pathname}
          error={actionData?.intent === 'add-enrichment' ? actionData.error : undefined}
          errorNeedsPlans={actionData?.intent === 'add-enrichment' && 'code' in actionData && errorNeedsPlans(actionData.code)}
        />
      ) : null}
    </section>
  )
}

function ResumeButton() {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'resume' })
  return (
    <Form method="post">
      <Button type="submit" name="intent" value="resume" pending={pending}>
        {t('exports.detail.resume')}
      </Button>
    </Form>
  )
}

function DeleteModal({ running, closeHref, error }: { running: boolean; closeHref: string; error?: string }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'delete' })
  return (
    <Modal
      title={t('exports.detail.deleteTitle')}
      description={t('exports.detail.deleteBody')}
      size="sm"
      closeControl={
        <Link to={closeHref} replace preventScrollReset className="rounded-md p-1 text-slate-400 hover:text-slate-600" aria-label={t('common.close')}>
          <CloseIcon />
        </Link>
      }
    >
      <Form method="post" className="space-y-4">
        {running ? <Alert tone="warning">{t('exports.detail.deleteRunningWarning')}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={closeHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" name="intent" value="delete" variant="danger" pending={pending}>
            {pending ? t('exports.detail.deleting') : t('exports.detail.deleteConfirm')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  if (!notFound) console.error(error)
  return (
    <section className="mx-auto max-w-xl">
      <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200" role="alert">
        <h1 className="text-lg font-semibold text-slate-900">{notFound ? t('exports.errors.notFound') : t('exports.errors.detailFailed')}</h1>
        <p className="mt-1 text-sm text-slate-600">{notFound ? t('exports.detail.notFoundBody') : t('errorPage.body')}</p>
        <Link to="/exports" className={buttonClasses({ className: 'mt-6' })}>
          {t('exports.detail.back')}
        </Link>
      </div>
    </section>
  )
}

