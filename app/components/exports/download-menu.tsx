import { useTranslation } from 'react-i18next'
import { Icon } from '../layout/icons.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { Disclosure, rowMenu } from '../ui/disclosure.tsx'

/**
 * The download choices. Each is a plain link (works without JavaScript); a new choice (e.g. a CSV separator) is one
 * more entry with its label and a one-line hint, and the panel grows to fit.
 */
const CHOICES = [
  { key: 'csv', query: 'format=csv', labelKey: 'exports.detail.downloadCsv', hintKey: 'leadsView.download.csvHint' },
  { key: 'xlsx', query: 'format=xlsx', labelKey: 'exports.detail.downloadExcel', hintKey: 'leadsView.download.xlsxHint' },
] as const

export function DownloadMenu({ exportId, userId }: { exportId: string; userId: string }) {
  const { t } = useTranslation()
  return (
    <Disclosure
      className={rowMenu.details}
      label={
        <span className={buttonClasses()}>
          <Icon name="exports" className="size-4" />
          {t('exports.detail.download')}
          <Icon name="chevronDown" className="size-4 opacity-80" />
        </span>
      }
      panelClassName={rowMenu.panel}
    >
      <p className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-500">{t('leadsView.download.heading')}</p>
      <ul data-testid="download-menu">
        {CHOICES.map((choice) => (
          <li key={choice.key}>
            <a
              href={`/api/exports/${exportId}/download?${choice.query}&userId=${userId}`}
              className="block rounded-lg px-2.5 py-2 hover:bg-slate-50 focus-visible:bg-slate-50"
              download
            >
              <span className="block text-sm font-medium text-slate-900">{t(choice.labelKey)}</span>
              <span className="block text-xs text-slate-500">{t(choice.hintKey)}</span>
            </a>
          </li>
        ))}
      </ul>
    </Disclosure>
  )
}
