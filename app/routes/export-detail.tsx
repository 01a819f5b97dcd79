import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData, useLocation, useSearchParams } from 'react-router'
import type { Route } from './+types/export-detail'
import type { AppHandle } from './app-layout.tsx'
import { requireUser, type SessionUser } from '#app/.server/auth.ts'
import type { LimitName } from '#app/.server/rate-limiter.ts'
import { getExportDetail } from '#app/.server/exports/views.ts'
import { listExportPushes } from '#app/.server/integrations/push.ts'
import { readDownloadPreset } from '#app/.server/exports/download-preference.ts'
import { addEnrichment, deleteExport, resumeExport } from '#app/.server/exports/service.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { consumeLimit, refusalAnswer, refused } from '#app/.server/rate-limit.ts'
import { getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { AddEnrichmentModal } from '#app/components/exports/add-enrichment-modal.tsx'
import { DeleteExportModal } from '#app/components/exports/delete-export-modal.tsx'
import { ExportDetailHeader } from '#app/components/exports/export-detail-header.tsx'
import { ExportSummary } from '#app/components/exports/export-summary.tsx'
import { LeadsPager } from '#app/components/exports/leads-pager.tsx'
import { LeadsTable } from '#app/components/exports/leads-table.tsx'
import { NeverExportNotice } from '#app/components/exports/never-export.tsx'
import { ResumeBanner } from '#app/components/exports/resume-banner.tsx'
import { ErrorAlert } from '#app/components/billing/plans-link.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { DEFAULT_DOWNLOAD_PRESET } from '#app/domain/download-presets.ts'
import { isFrance, selectedTypes } from '#app/domain/enrichment.ts'
import { ExportDetailCommandSchema, ExportIdSchema, type ExportDetailCommand } from '#app/domain/export-commands.ts'
import { canAddEnrichment, deleteWarnsRunning, errorNeedsPlans, exportErrorMessageKey, isExportActive, offersResume } from '#app/domain/exports.ts'
import { isUuid } from '#app/domain/ids.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { PushHistory } from '#app/components/integrations/push-history.tsx'
import { pageTexts } from '#app/i18n.ts'

// The CRM pushes of a completed export are listed here with their progress (integrations texts).
await pageTexts('integrations')

export const handle: AppHandle = { titleKey: 'pages.exportDetail' }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1')
  // The user's last download preset preselects the download menu's columns.
  // The pushes are read beside the detail, not after it (an indexed read; empty unless the export was pushed).
  const [detail, downloadPreset, pushes] = isUuid(params.id) ? await Promise.all([getExportDetail(user, params.id, page), readDownloadPreset(user), listExportPushes(user, params.id, 3)]) : [null, null, []]
  if (!detail) throw data({ message: 'Export not found' }, { status: 404 })
  // The stored sector is a category id (or free text): show its label in the interface language.
  const category = detail.searchParams.sector ? getCategory(detail.searchParams.sector) : null
  const sectorLabel = category ? labelOf(category, getLocale(context) === 'fr' ? 'fr' : 'en') : detail.searchParams.sector
  return { detail: { ...detail, searchParams: { ...detail.searchParams, sector: sectorLabel } }, userId: user.id, downloadPreset: downloadPreset ?? DEFAULT_DOWNLOAD_PRESET, pushes }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  // Echoed as sent, so the page shows the error in the modal that posted it.
  const intent = formData.get('intent')
  const exportId = ExportIdSchema.safeParse(params.id)
  if (!exportId.success) return data({ intent, error: t('exports.errors.notFound') }, { status: 404 })
  const submission = parseWithZod(formData, { schema: ExportDetailCommandSchema })
  if (submission.status !== 'success') return data({ intent, error: t('errorPage.badRequest') }, { status: 400 })
  // Resume and add enrichment have their own per-user limits, shared with the JSON routes and the API.
  const limit = COMMAND_LIMITS[submission.value.intent]
  const overLimit = limit ? refused(await consumeLimit(limit, user.id)) : undefined
  if (overLimit) {
    const { status, message, headers } = refusalAnswer(context, overLimit)
    return data({ intent, error: message }, { status, headers })
  }
  return runCommand(submission.value, { user, exportId: exportId.data, t })
}

const COMMAND_LIMITS: Partial<Record<ExportDetailCommand['intent'], LimitName>> = { resume: 'exportResume', 'add-enrichment': 'exportEnrich' }

/** One command of the detail page: a redirect with a notice on success, the localized failure otherwise. */
async function runCommand(command: ExportDetailCommand, { user, exportId, t }: { user: SessionUser; exportId: string; t: (key: string) => string }) {
  const { intent } = command
  switch (intent) {
    case 'resume': {
      const result = await resumeExport({ user, exportId })
      if (!result.ok) return data({ intent, code: result.code, error: t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.resumeFailed')) }, { status: result.status })
      return redirect(`/exports/${exportId}?resumed=1`)
    }
    case 'add-enrichment': {
      const result = await addEnrichment({ user, exportId, options: command.options })
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
  }
}

export default function ExportDetailRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { detail } = loaderData
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const actionData = useActionData<typeof action>()
  const chosen = selectedTypes(detail.enrichmentOptions)
  const failure = (intent: string) => (actionData?.intent === intent ? actionData : undefined)
  const showDelete = searchParams.get('delete') === '1' || Boolean(failure('delete'))
  const showAdd = (searchParams.get('add') === '1' || Boolean(failure('add-enrichment'))) && canAddEnrichment(detail.status)
  const notice = searchParams.get('resumed') === '1' ? t('exports.detail.resumed') : searchParams.get('added') === '1' ? t('exports.detail.enrichmentAdded') : searchParams.get('started') === '1' ? t('exports.detail.started') : null
  const addFailure = failure('add-enrichment')
  return (
    <section className="mx-auto max-w-7xl space-y-6">
      {/* Refreshed while the export runs, and while one of its CRM pushes does. */}
      <AutoRefresh active={isExportActive(detail.status) || loaderData.pushes.some((push) => push.status === 'queued' || push.status === 'running')} />
      <BackLink to="/exports">{t('exports.detail.back')}</BackLink>
      <ExportDetailHeader detail={detail} userId={loaderData.userId} downloadPreset={loaderData.downloadPreset} />
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <NeverExportNotice />
      {actionData?.error && !showDelete && !showAdd ? <ErrorAlert message={actionData.error} withPlansLink={'code' in actionData && errorNeedsPlans(actionData.code)} /> : null}
      {offersResume({ status: detail.status, can_resume: detail.canResume }) ? <ResumeBanner /> : null}
      {detail.emailVerificationUnavailable ? (
        <Alert tone="warning" title={t('exports.detail.emailVerificationUnavailableTitle')}>
          <span data-testid="email-verification-unavailable">{t('exports.detail.emailVerificationUnavailable')}</span>
        </Alert>
      ) : null}
      <ExportSummary searchParams={detail.searchParams} chosen={chosen} leadCount={detail.leadCount} creditsUsed={detail.creditsUsed} progress={detail.progress} excluded={detail.excluded} reusedCount={detail.reusedCount} />
      <PushHistory exportId={detail.id} pushes={loaderData.pushes} />
      {detail.totalLeads === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-sm text-slate-600">{t('exports.detail.noLeads')}</div>
      ) : (
        <div className="space-y-3">
          <LeadsTable leads={detail.leads} chosen={chosen} />
          <LeadsPager base={`/exports/${detail.id}`} page={detail.page} pageCount={detail.pageCount} total={detail.totalLeads} />
        </div>
      )}
      {showDelete ? <DeleteExportModal warnRunning={deleteWarnsRunning(detail.status)} closeHref={location.pathname} error={failure('delete')?.error} /> : null}
      {showAdd ? (
        <AddEnrichmentModal
          already={detail.enrichmentOptions}
          france={isFrance(detail.searchParams.country)}
          closeHref={location.pathname}
          error={addFailure?.error}
          errorNeedsPlans={Boolean(addFailure && 'code' in addFailure && errorNeedsPlans(addFailure.code))}
        />
      ) : null}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const notFound = { title: t('exports.errors.notFound'), body: t('exports.detail.notFoundBody') }
  return <RouteErrorCard error={error} title={t('exports.errors.detailFailed')} body={t('errorPage.body')} notFound={notFound} backTo="/exports" backLabel={t('exports.detail.back')} />
}

