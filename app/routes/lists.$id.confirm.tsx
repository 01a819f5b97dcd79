import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Link, redirect, useActionData, useLocation } from 'react-router'
import type { Route } from './+types/lists.$id.confirm'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { exportFormRefusal, sentExportForm } from '#app/.server/exports/export-form-answer.ts'
import { currentFillRates } from '#app/.server/exports/fill-rates.ts'
import { holdsIdempotencyKey } from '#app/.server/exports/service.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { LIST_COMMAND_STATUS, launchList } from '#app/.server/lists/commands.ts'
import { readListConfirm } from '#app/.server/lists/view.ts'
import { withinBudget } from '#app/.server/rate-limit.ts'
import type { ExportFormState } from '#app/components/exports/export-modal.tsx'
import { ListExportModal } from '#app/components/lists/list-export-modal.tsx'
import { MatchEstimate } from '#app/components/lists/match-estimate.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { optionsFromValues } from '#app/domain/enrichment.ts'
import { LaunchListSchema } from '#app/domain/export-commands.ts'
import { LIST_MAX_ROWS } from '#app/domain/list-columns.ts'
import { estimatedPaidPositions } from '#app/domain/list-match.ts'
import { env } from '#app/.server/env.server.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { pageTexts } from '#app/i18n.ts'
import { riskFiltersOfForm } from '#app/domain/search-filters.ts'

await pageTexts('lists')

export const handle: AppHandle = { titleKey: 'lists.confirmPageTitle' }

/** The export's default name: the file's, without its extension. */
function listExportName(fileName: string): string {
  return fileName.replace(/\.[a-z\d]{1,5}$/i, '').slice(0, 120) || fileName
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const view = await readListConfirm(user, params.id)
  if (!view) throw data({ message: 'List not found' }, { status: 404 })
  if (view === 'unmapped') throw redirect(`/lists/${params.id}`)
  if (view.list.exportId) throw redirect(`/exports/${view.list.exportId}`)
  const canLaunch = can(user.workspace.role, 'export')
  // "Enrich this list", reachable by URL so it also opens without JavaScript.
  const launch =
    canLaunch && new URL(request.url).searchParams.get('launch') === '1' && view.estimate.high > 0
      ? {
          idempotencyKey: randomUUID(),
          credits: (await requireCreditsSummary(user)).remaining,
          defaultName: listExportName(view.list.fileName),
          // The most the list can cost: every row the estimate may match (its upper bound).
          cost: {
            matches: { value: view.estimate.high, exact: true },
            exportCap: LIST_MAX_ROWS,
            fillRates: await currentFillRates(),
            paid: estimatedPaidPositions(view.sample, view.estimate.high),
            reuseDays: env.ENRICHMENT_REUSE_DAYS,
          },
        }
      : null
  return { view, launch, canLaunch }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: LaunchListSchema })
  if (formData.get('recalculate') === '1') return data(sentExportForm(submission.payload, true) satisfies ExportFormState)
  if (submission.status !== 'success') return data({ ...sentExportForm(submission.payload, true), result: submission.reply() } satisfies ExportFormState, { status: 400 })
  const { name, idempotencyKey = randomUUID() } = submission.value
  const options = optionsFromValues(submission.value.options, { france: true })
  const sent = { name, options, maxLeads: String(formData.get('maxLeads') ?? '').trim() }
  // The same budget as every export's creation (forms and API alike).
  const created = await withinBudget('exportCreate', user.id, () => launchList({ user, listId: params.id, name, enrichmentOptions: options, idempotencyKey, lang, maxLeads: submission.value.maxLeads ?? null, onlyNew: submission.value.onlyNew, filters: riskFiltersOfForm(formData) }), {
    replay: await holdsIdempotencyKey(user, idempotencyKey),
    made: (result) => result.ok && !result.duplicate,
  })
  if (created.refused) return exportFormRefusal(context, sent, created)
  const result = created.result
  if (result.ok) throw redirect(`/exports/${result.exportId}?started=1`)
  // The export command's refusals (credits, name, cap) answer as every export modal's; the list's own, here.
  if ('status' in result) return exportFormRefusal(context, sent, { result })
  if (result.code === 'not_found') throw data({ message: 'List not found' }, { status: 404 })
  return data({ ...sent, error: t(`lists.errors.${result.code}`) } satisfies ExportFormState, { status: LIST_COMMAND_STATUS[result.code] })
}

export default function ListConfirmRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const location = useLocation()
  const last = useActionData<typeof action>()
  const { view, launch, canLaunch } = loaderData
  const base = `/lists/${view.list.id}/confirm`
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to={`/lists/${view.list.id}`}>{t('lists.confirm.backToMapping')}</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-brand-700">{t('lists.steps.confirm')}</p>
          <h1 className="mt-1 text-2xl font-semibold break-words text-slate-900">{t('lists.confirm.title', { file: view.list.fileName })}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('lists.confirm.subtitle')}</p>
        </div>
        {canLaunch && view.estimate.high > 0 ? (
          <Link to={`${base}?launch=1`} className={buttonClasses({ className: 'shrink-0' })} data-testid="list-launch-open">
            {t('lists.confirm.launch')}
          </Link>
        ) : null}
      </div>
      {!canLaunch ? <Alert tone="info">{t('lists.errors.forbidden_role')}</Alert> : null}
      {view.estimate.high === 0 ? <Alert tone="warning">{t('lists.confirm.nothingMatched')}</Alert> : null}
      <MatchEstimate view={view} />
      {launch ? (
        <ListExportModal
          listId={view.list.id}
          idempotencyKey={launch.idempotencyKey}
          credits={launch.credits}
          cost={launch.cost}
          defaultName={launch.defaultName}
          closeHref={location.pathname}
          last={last}
        />
      ) : null}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const notFound = { title: t('lists.notFound'), body: t('lists.notFoundBody') }
  return <RouteErrorCard error={error} title={t('lists.loadFailed')} body={t('errorPage.body')} notFound={notFound} backTo="/lists/new" backLabel={t('lists.backToUpload')} />
}
