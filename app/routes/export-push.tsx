import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/export-push'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { PUSH_FAILURE_STATUS, startCrmPush } from '#app/.server/integrations/push.ts'
import { readPushPage } from '#app/.server/integrations/push-view.ts'
import { refusalAnswer } from '#app/.server/rate-limit.ts'
import { LeadsPager } from '#app/components/exports/leads-pager.tsx'
import { StatusBadge } from '#app/components/exports/status-badge.tsx'
import { PushForm } from '#app/components/integrations/push-form.tsx'
import { PushHistory } from '#app/components/integrations/push-history.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { CRM_PUSH_PAGE_SIZE, CrmPushFormSchema } from '#app/domain/crm.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { pageTexts } from '#app/i18n.ts'

await pageTexts('integrations')

export const handle: AppHandle = { titleKey: 'pages.exportPush' }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const view = await readPushPage(user, params.id, page)
  if (!view) throw data({ message: 'Export not found' }, { status: 404 })
  return { view, admin: can(user.workspace.role, 'integrations'), canPush: can(user.workspace.role, 'export') }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  const sent = { connectionId: String(formData.get('connectionId') ?? ''), scope: String(formData.get('scope') ?? ''), leadIds: formData.getAll('leadIds').map(String) }
  const submission = parseWithZod(formData, { schema: CrmPushFormSchema })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0]
    return data({ error: t(first ?? 'errorPage.badRequest'), sent }, { status: 400 })
  }
  const { connectionId, scope, leadIds } = submission.value
  const result = await startCrmPush(user, params.id, { connectionId, ...(scope === 'selected' ? { leadIds } : {}) })
  if (!result.ok) {
    if (result.refusal) {
      const { status, message, headers } = refusalAnswer(context, result.refusal)
      return data({ error: message, sent }, { status, headers })
    }
    return data({ error: t(`integrations.errors.${result.code}`), sent }, { status: PUSH_FAILURE_STATUS[result.code] })
  }
  throw redirect(`/exports/${params.id}/pushes/${result.push.id}`)
}

export default function ExportPushRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { view, admin, canPush } = loaderData
  const actionData = useActionData<typeof action>()
  const completed = view.export.status === 'completed'
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to={`/exports/${view.export.id}`}>{t('integrations.backToExport')}</BackLink>
      <div>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold break-words text-slate-900">{t('integrations.pushTitle', { name: view.export.name })}</h1>
          <StatusBadge status={view.export.status} />
        </div>
        <p className="mt-1 text-sm text-slate-600">{t('integrations.pushSubtitle')}</p>
      </div>
      {view.export.isDemo ? <Alert tone="warning">{t('integrations.demoWarning')}</Alert> : null}
      {!completed ? <Alert tone="info">{t('integrations.errors.export_not_completed')}</Alert> : null}
      {!canPush ? <Alert tone="info">{t('integrations.readOnly')}</Alert> : null}
      {completed && canPush ? (
        <div className="space-y-3">
          <PushForm connections={view.connections} leadCount={view.export.leadCount} leads={view.leads} error={actionData?.error} sent={actionData?.sent} admin={admin} />
          {view.pageCount > 1 ? <LeadsPager base={`/exports/${view.export.id}/push`} page={view.page} pageCount={view.pageCount} total={view.export.leadCount} pageSize={CRM_PUSH_PAGE_SIZE} /> : null}
        </div>
      ) : null}
      <PushHistory exportId={view.export.id} pushes={view.pushes} />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const notFound = { title: t('exports.errors.notFound'), body: t('exports.detail.notFoundBody') }
  return <RouteErrorCard error={error} title={t('integrations.loadFailed')} body={t('errorPage.body')} notFound={notFound} backTo="/exports" backLabel={t('exports.detail.back')} />
}
