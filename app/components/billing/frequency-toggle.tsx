import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { BILLING_FREQUENCIES, maxAnnualDiscountPercent, type BillingFrequency } from '#app/domain/billing.ts'
import { cn } from '#app/utils/misc.ts'

/** Monthly / annual: two links (`?frequency=`), so it works without JavaScript too. */
export function FrequencyToggle({ value }: { value: BillingFrequency }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('subscription.frequency.label')} className="inline-flex rounded-xl bg-slate-200/70 p-1 ring-1 ring-slate-200 ring-inset">
      {BILLING_FREQUENCIES.map((frequency) => {
        const selected = frequency === value
        return (
          <Link
            key={frequency}
            to={`?frequency=${frequency}`}
            replace
            preventScrollReset
            aria-current={selected ? 'true' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium transition-colors',
              selected ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {t(`subscription.frequency.${frequency}`)}
            {frequency === 'annual' ? (
              <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', selected ? 'bg-emerald-100 text-emerald-800' : 'bg-emerald-50 text-emerald-800')}>
                {t('subscription.frequency.saveUpTo', { percent: maxAnnualDiscountPercent() })}
              </span>
            ) : null}
          </Link>
        )
      })}
    </nav>
  )
}
