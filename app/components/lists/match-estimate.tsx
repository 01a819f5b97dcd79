import { useTranslation } from 'react-i18next'
import type { ListConfirmView } from '#app/domain/list-views.ts'
import { LIST_MATCH_KINDS } from '#app/domain/list-match.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { StatGrid } from '../ui/stat-grid.tsx'

/**
 * The match before launching: how many rows are expected to match (with the sample's interval, or exact for a small
 * file), how many are new to the workspace, and per identifier what the sample found.
 */
export function MatchEstimate({ view }: { view: ListConfirmView }) {
  const { t, i18n } = useTranslation()
  const { estimate, sample } = view
  const number = numberFormat(i18n.language)
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 })
  const stats = [
    { key: 'matched', value: t('lists.confirm.matchedValue', { matched: number.format(estimate.matched), rate: percent.format(estimate.rate) }) },
    { key: 'new', value: number.format(estimate.newBusinesses) },
    { key: 'alreadyYours', value: number.format(estimate.alreadyYours) },
    { key: 'usable', value: number.format(estimate.usable) },
  ]
  return (
    <section aria-labelledby="list-estimate-title" className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="list-estimate">
      <h2 id="list-estimate-title" className="text-sm font-semibold text-slate-900">
        {t('lists.confirm.estimateTitle')}
      </h2>
      <StatGrid tone="slate" className="lg:grid-cols-4" stats={stats.map(({ key, value }) => ({ label: t(`lists.confirm.stats.${key}`), value, testId: `list-stat-${key}` }))} />
      <p className="text-sm text-slate-600" data-testid="list-estimate-basis">
        {estimate.exact
          ? t('lists.confirm.exact', { count: estimate.usable, formatted: number.format(estimate.usable) })
          : t('lists.confirm.sampled', { sampled: number.format(sample.sampled), low: number.format(estimate.low), high: number.format(estimate.high) })}
        {sample.failed > 0 ? ` ${t('lists.confirm.failed', { count: sample.failed })}` : ''}
      </p>
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">{t('lists.confirm.byKindCaption')}</caption>
          <thead className="text-xs font-medium text-slate-500">
            <tr>
              <th scope="col" className="py-2 pr-4">{t('lists.confirm.byKind.kind')}</th>
              <th scope="col" className="py-2 pr-4 text-right">{t('lists.confirm.byKind.rows')}</th>
              <th scope="col" className="py-2 text-right">{t('lists.confirm.byKind.matched')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {LIST_MATCH_KINDS.filter((kind) => sample.rowsByKind[kind] > 0).map((kind) => (
              <tr key={kind}>
                <th scope="row" className="py-2 pr-4 font-normal text-slate-900">{t(`lists.matchBy.${kind}`)}</th>
                <td className="py-2 pr-4 text-right text-slate-700 tabular-nums">{number.format(sample.rowsByKind[kind])}</td>
                <td className="py-2 text-right text-slate-700 tabular-nums">
                  {t('lists.confirm.byKind.ofSample', { matched: number.format(sample.byKind[kind].matched), sampled: number.format(sample.byKind[kind].sampled) })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">{t('lists.confirm.unmatchedFree')}</p>
    </section>
  )
}
