import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { creditsPercent, type CreditsSummary } from '#app/domain/plans.ts'
import { Disclosure } from '../ui/disclosure.tsx'
import { Icon } from './icons.tsx'
import { Meter } from '../ui/meter.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { numberFormat } from '#app/utils/number-format.ts'

export function CreditsMenu({ credits }: { credits: CreditsSummary }) {
  const { t, i18n } = useTranslation()
  const percent = creditsPercent(credits.remaining, credits.total)
  const number = numberFormat(i18n.language)
  const nextReload = credits.nextReloadDate ? formatDate(credits.nextReloadDate, i18n.language, t) : null
  const summary = t('header.creditsSummary', { remaining: number.format(credits.remaining), total: number.format(credits.total) })
  return (
    <Disclosure
      label={
        <>
          <Icon name="coins" className="size-4 text-brand-600" />
          <span className="hidden sm:inline" data-testid="credits-summary">{summary}</span>
          <span className="sm:hidden">{number.format(credits.remaining)}</span>
          <span className="sr-only sm:hidden">{summary}</span>
          <Icon name="chevronDown" className="size-4 text-slate-400" />
        </>
      }
      buttonClassName="flex items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-200 ring-inset hover:bg-slate-50"
      panelClassName="absolute right-0 z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-900/10"
    >
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('header.creditsRemaining')}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900">
        {number.format(credits.remaining)}
        <span className="text-base font-normal text-slate-500"> / {number.format(credits.total)}</span>
      </p>
      <Meter percent={percent} label={t('header.creditsUsedPercent', { percent })} className="mt-3 h-2" />
      {!credits.ok ? <p className="mt-2 text-xs text-red-600">{t('header.creditsUnavailable')}</p> : null}
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">{t('header.plan')}</dt>
          <dd className="font-medium text-slate-900" data-testid="plan-label">{t(`plans.${credits.plan}`)}</dd>
        </div>
        {credits.memberCap ? (
          <div className="flex items-center justify-between gap-3">
            <dt className="text-slate-500">{t('header.yourShare')}</dt>
            <dd className="text-right font-medium text-slate-900" data-testid="member-share">
              {t('header.yourShareValue', { left: number.format(credits.memberCap.left), cap: number.format(credits.memberCap.cap) })}
            </dd>
          </div>
        ) : null}
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500">{t('header.nextReload')}</dt>
          <dd className="text-right text-slate-900">{nextReload ?? (credits.plan === 'free_trial' ? t('header.noReload') : t('header.noFurtherReload'))}</dd>
        </div>
      </dl>
      <Link to="/subscription" className="mt-4 block rounded-lg bg-brand-50 px-3 py-2 text-center text-sm font-medium text-brand-700 hover:bg-brand-100">
        {t('header.manageSubscription')}
      </Link>
    </Disclosure>
  )
}
