import { useTranslation } from 'react-i18next'
import { numberFormat } from '#app/utils/number-format.ts'

/** Rating to one decimal plus the review count, or the no-reviews text (SPEC §2). */
export function Reviews({ rating, count }: { rating: number | null; count: number | null }) {
  const { t, i18n } = useTranslation()
  if (rating == null || !count) return <span className="text-slate-500">{t("search.noReviews")}</span>
  const formatted = numberFormat(i18n.language, 'oneDecimal').format(rating)
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span aria-label={t('search.ratingLabel', { rating: formatted })} className="inline-flex items-center gap-1 font-medium text-slate-900">
        <svg viewBox="0 0 20 20" className="size-4 text-amber-400" fill="currentColor" aria-hidden="true">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
        {formatted}
      </span>
      <span className="text-slate-500">({t('search.reviewCount', { count })})</span>
    </span>
  )
}
