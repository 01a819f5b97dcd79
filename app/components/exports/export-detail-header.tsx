import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { DownloadPreset } from '#app/domain/download-presets.ts'
import { canAddEnrichment, canDownload } from '#app/domain/exports.ts'
import { formatDate } from '#app/utils/dates.ts'
import { Icon } from '../layout/icons.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { DownloadMenu } from './download-menu.tsx'
import { StatusBadge } from './status-badge.tsx'

export interface ExportHeading {
  id: string
  name: string
  status: string
  isDemo: boolean
  createdAt: string | null
}

/** Name, badge and date, then the actions the status allows (the domain's canDownload / canAddEnrichment). */
export function ExportDetailHeader({ detail, userId, downloadPreset }: { detail: ExportHeading; userId: string; downloadPreset: DownloadPreset }) {
  const { t, i18n } = useTranslation()
  const base = `/exports/${detail.id}`
  return (
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
        {canDownload(detail.status) ? <DownloadMenu exportId={detail.id} userId={userId} preset={downloadPreset} /> : null}
        {detail.status === 'completed' ? (
          <Link to={`${base}/push`} className={buttonClasses({ variant: 'secondary' })}>
            {t('exports.detail.pushToCrm')}
          </Link>
        ) : null}
        {canAddEnrichment(detail.status) ? (
          <Link to={`${base}?add=1`} className={buttonClasses({ variant: 'secondary' })} preventScrollReset>
            {t('exports.detail.addEnrichment')}
          </Link>
        ) : null}
        {/* One action needs no menu: a direct button (its confirmation is the delete dialog). */}
        <Link to={`${base}?delete=1`} preventScrollReset className={buttonClasses({ variant: 'secondary', className: 'text-red-700! hover:bg-red-50!' })}>
          <Icon name="trash" className="size-4" />
          {t('exports.detail.delete')}
        </Link>
      </div>
    </div>
  )
}
