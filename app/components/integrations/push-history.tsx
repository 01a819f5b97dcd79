import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CRM_PROVIDER_NAMES, CRM_ROW_OUTCOMES, type CrmPushStatus, type CrmPushView } from '#app/domain/crm.ts'
import { formatDate } from '#app/utils/dates.ts'
import { cn } from '#app/utils/misc.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { Spinner } from '../ui/spinner.tsx'

const STATUS_STYLES: Record<CrmPushStatus, string> = {
  queued: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  running: 'bg-brand-50 text-brand-700 ring-brand-600/20',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  failed: 'bg-red-50 text-red-700 ring-red-600/20',
}

export function PushStatusBadge({ status }: { status: CrmPushStatus }) {
  const { t } = useTranslation()
  return (
    <span className={cn('inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_STYLES[status])} data-status={status}>
      {status === 'running' || status === 'queued' ? <Spinner className="size-3" /> : null}
      {t(`integrations.pushStatus.${status}`)}
    </span>
  )
}

/** "12 created · 3 updated · 1 skipped · 0 failed". */
export function PushCounts({ push }: { push: CrmPushView }) {
  const { t, i18n } = useTranslation()
  const number = numberFormat(i18n.language)
  return (
    <p className="text-sm text-slate-600" data-testid="push-counts">
      {CRM_ROW_OUTCOMES.map((outcome) => t(`integrations.counts.${outcome}`, { count: push.counts[outcome], formatted: number.format(push.counts[outcome]) })).join(' · ')}
    </p>
  )
}

export function connectionName(push: Pick<CrmPushView, 'provider' | 'connectionLabel'>, removed: string): string {
  return push.provider && push.connectionLabel ? `${CRM_PROVIDER_NAMES[push.provider]} · ${push.connectionLabel}` : removed
}

/** The export's recent pushes, each linking to its report. */
export function PushHistory({ exportId, pushes }: { exportId: string; pushes: CrmPushView[] }) {
  const { t, i18n } = useTranslation()
  if (!pushes.length) return null
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 className="px-6 pt-6 text-lg font-semibold text-slate-900">{t('integrations.historyTitle')}</h2>
      <ul className="divide-y divide-slate-100">
        {pushes.map((push) => (
          <li key={push.id} className="flex flex-col gap-2 px-6 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/exports/${exportId}/pushes/${push.id}`} className="font-medium break-words text-brand-700 hover:underline">
                  {connectionName(push, t('integrations.removedConnection'))}
                </Link>
                <PushStatusBadge status={push.status} />
              </div>
              <PushCounts push={push} />
            </div>
            <p className="shrink-0 text-sm text-slate-500">{formatDate(push.createdAt, i18n.language, t, 'dateTime')}</p>
          </li>
        ))}
      </ul>
    </div>
  )
}
