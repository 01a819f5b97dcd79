import { useTranslation } from 'react-i18next'
import { shareInPoints, type MapCoverage, type ShareEstimate } from '#app/domain/coverage.ts'
import { Meter } from '../ui/meter.tsx'

/** How much of the registry's set the map source shows, and with a website: estimates with their margin, or counts. */
export function CoveragePanel({ coverage }: { coverage: MapCoverage | 'needs_activity' | null }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="coverage-title" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6" data-testid="coverage-panel">
      <h2 id="coverage-title" className="text-base font-semibold text-slate-900">
        {t('companies.coverage.title')}
      </h2>
      {coverage === 'needs_activity' ? (
        <p className="mt-1 text-sm text-slate-600">{t('companies.coverage.needsActivity')}</p>
      ) : coverage ? (
        <>
          <p className="mt-1 text-sm text-slate-600">{t(coverage.source === 'demo' ? 'companies.coverage.introDemo' : 'companies.coverage.intro')}</p>
          <div className="mt-4 grid gap-4 md:grid-cols-2">
            <Share estimate={coverage.onMap} what="onMap" />
            <Share estimate={coverage.withWebsite} what="withWebsite" />
          </div>
          <p className="mt-4 text-xs text-slate-500">{t(coverage.onMap.exact ? 'companies.coverage.methodExact' : 'companies.coverage.method')}</p>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">{t('companies.coverage.unavailable')}</p>
      )}
    </section>
  )
}

function Share({ estimate, what }: { estimate: ShareEstimate; what: 'onMap' | 'withWebsite' }) {
  const { t, i18n } = useTranslation()
  const { percent, margin } = shareInPoints(estimate)
  const number = new Intl.NumberFormat(i18n.language)
  const text = estimate.exact
    ? t(`companies.coverage.${what}Exact`, { hits: number.format(estimate.hits), count: estimate.sample, formatted: number.format(estimate.sample), percent })
    : t(`companies.coverage.${what}Estimate`, { percent, margin, count: estimate.sample, formatted: number.format(estimate.sample) })
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="text-sm font-medium text-slate-900" data-testid={`coverage-${what}`}>
        {text}
      </p>
      <Meter percent={percent} label={text} className="mt-3 h-2" />
    </div>
  )
}
