import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/export-push-report'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getCrmPush, listPushItems } from '#app/.server/integrations/push.ts'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { connectionName, PushCounts, PushStatusBadge } from '#app/components/integrations/push-history.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { CRM_PUSH_PAGE_SIZE, CRM_ROW_OUTCOMES, type CrmRowOutcome } from '#app/domain/crm.ts'
import { pageTexts } from '#app/i18n.ts'
import { cn } from '#app/utils/misc.ts'

await pageTexts('integrations')

export const handle: AppHandle = { titleKey: 'pages.pushReport' }

const OUTCOME_STYLES: Record<CrmRowOutcome, string> = {
  created: 'text-emerald-700',
  updated: 'text-brand-700',
  skipped: 'text-slate-600',
  failed: 'text-red-700',
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const push = await getCrmPush(user, params.pushId)
  if (!push || push.exportId !== params.id) throw data({ message: 'Push not found' }, { status: 404 })
  const outcomeParam = url.searchParams.get('outcome')
  const outcome = CRM_ROW_OUTCOMES.find((candidate) => candidate === outcomeParam) ?? null
  const after = url.searchParams.get('after')
  const items = await listPushItems(user, push.id, { limit: CRM_PUSH_PAGE_SIZE + 1, after, outcome })
  return { push, items: items.slice(0, CRM_PUSH_PAGE_SIZE), next: items.length > CRM_PUSH_PAGE_SIZE ? items[CRM_PUSH_PAGE_SIZE - 1]!.leadId : null, outcome }
}

export default function PushReportRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { push, items, next, outcome } = loaderData
  const base = `/exports/${push.exportId}/pushes/${push.id}`
  const filter = (value: CrmRowOutcome | null) => (value ? `${base}?outcome=${value}` : base)
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <AutoRefresh active={push.status === 'queued' || push.status === 'running'} />
      <BackLink to={`/exports/${push.exportId}/push`}>{t('integrations.backToPush')}</BackLink>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold break-words text-slate-900">{t('integrations.reportTitle', { name: connectionName(push, t('integrations.removedConnection')) })}</h1>
          <PushStatusBadge status={push.status} />
        </div>
        <PushCounts push={push} />
      </div>
      {push.error ? <Alert tone="error">{t('integrations.pushFailed', { reason: push.error })}</Alert> : null}
      <nav aria-label={t('integrations.filterLabel')} className="flex flex-wrap gap-2">
        {[null, ...CRM_ROW_OUTCOMES].map((value) => (
          <Link key={value ?? 'all'} to={filter(value)} aria-current={value === outcome ? 'page' : undefined} className={buttonClasses({ variant: value === outcome ? 'primary' : 'secondary', size: 'sm' })}>
            {value ? t(`integrations.outcomes.${value}`) : t('integrations.allOutcomes')}
          </Link>
        ))}
      </nav>
      {items.length ? (
        <ul className="divide-y divide-slate-100 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" data-testid="push-items">
          {items.map((item) => (
            <li key={item.leadId} className="flex flex-col gap-1 px-6 py-3 sm:flex-row sm:items-center sm:justify-between">
              <span className="min-w-0 font-medium break-words text-slate-900">{item.name}</span>
              <span className={cn('text-sm sm:text-right', OUTCOME_STYLES[item.outcome])}>
                {t(`integrations.outcomes.${item.outcome}`)}
                {item.reason ? <span className="block break-words text-slate-500">{t(`integrations.reasons.${item.reason}`, { defaultValue: item.reason })}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-600">{push.status === 'completed' || push.status === 'failed' ? t('integrations.noItems') : t('integrations.waiting')}</p>
      )}
      {next ? (
        <div className="flex justify-end">
          <Link to={`${base}?${new URLSearchParams({ ...(outcome ? { outcome } : {}), after: next }).toString()}`} className={buttonClasses({ variant: 'secondary', size: 'sm' })} rel="next">
            {t('exports.detail.next')}
          </Link>
        </div>
      ) : null}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  return <RouteErrorCard error={error} title={t('integrations.loadFailed')} body={t('errorPage.body')} notFound={{ title: t('integrations.pushNotFound'), body: t('integrations.pushNotFoundBody') }} backTo="/exports" backLabel={t('exports.detail.back')} />
}
