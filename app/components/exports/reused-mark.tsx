import { useTranslation } from 'react-i18next'

/** Says a value was reused from the user's earlier purchase (0 credits), and when that purchase was. */
export function ReusedMark({ paidAt }: { paidAt: string }) {
  const { t, i18n } = useTranslation()
  const date = new Date(paidAt)
  const day = Number.isNaN(date.getTime()) ? paidAt : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
  return (
    <span className="mt-1 inline-flex items-center gap-1 rounded-md bg-sky-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-sky-800 ring-1 ring-sky-200 ring-inset" title={t('exports.detail.reusedTitle', { date: day })} data-testid="reused-mark">
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
        <path d="M13 5.5A5.5 5.5 0 0 0 3.2 4.2M3 10.5a5.5 5.5 0 0 0 9.8 1.3" />
        <path d="M3 1.8v2.7h2.7M13 14.2v-2.7h-2.7" />
      </svg>
      {t('exports.detail.reused')} · {day}
      <span className="sr-only">{t('exports.detail.reusedTitle', { date: day })}</span>
    </span>
  )
}
