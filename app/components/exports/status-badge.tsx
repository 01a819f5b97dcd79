import { useTranslation } from 'react-i18next'
import { showProgressBar, statusBadge, type StatusBadgeKind } from '#app/domain/exports.ts'
import { cn } from '#app/utils/misc.ts'
import { Spinner } from '../ui/spinner.tsx'
import { Meter } from '../ui/meter.tsx'

const STYLES: Record<StatusBadgeKind, string> = {
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  failed: 'bg-red-50 text-red-700 ring-red-600/20',
  interrupted: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  processing: 'bg-brand-50 text-brand-700 ring-brand-600/20',
}

/** The badge the domain's statusBadge picks (pending, processing and unknown values: "processing", spinning). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation()
  const { kind, spinner } = statusBadge(status)
  return (
    <span className={cn('inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', STYLES[kind])} data-status={status}>
      {spinner ? <Spinner className="size-3" /> : null}
      {t(`exports.status.${kind}`)}
    </span>
  )
}

/** Shown only while the domain's showProgressBar says so (strictly between 0 and 100). */
export function ProgressBar({ percent, className }: { percent: number; className?: string }) {
  const { t } = useTranslation()
  if (!showProgressBar(percent)) return null
  const rounded = Math.round(percent)
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Meter percent={percent} label={t('exports.progressLabel', { percent: rounded })} className="h-1.5 w-full min-w-20" fillClassName="transition-[width] duration-500" />
      <span className="text-xs text-slate-600 tabular-nums">{rounded}%</span>
    </div>
  )
}
