import { useTranslation } from 'react-i18next'
import type { MatchCount } from '#app/domain/search.ts'

/** How many businesses the search (with its filters) matches, said before any credit is spent. */
export function MatchCountLine({ count }: { count: MatchCount }) {
  const { t, i18n } = useTranslation()
  const formatted = new Intl.NumberFormat(i18n.language).format(count.value)
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 rounded-xl bg-brand-50 px-4 py-3 text-sm ring-1 ring-brand-100 ring-inset" role="status">
      <span className="font-semibold text-brand-900" data-testid="match-count">
        {t(count.exact ? 'search.matchCount.exact' : 'search.matchCount.atLeast', { count: count.value, formatted })}
      </span>
      <span className="text-brand-800/80">{t('search.matchCount.free')}</span>
    </p>
  )
}
