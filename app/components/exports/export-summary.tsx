import { useTranslation } from 'react-i18next'
import type { EnrichmentType } from '#app/domain/enrichment.ts'
import type { SearchFilters } from '#app/domain/search-filters.ts'
import { ExportSearchLimits } from './export-search-limits.tsx'
import { ProgressBar } from './status-badge.tsx'
import { numberFormat } from '#app/utils/number-format.ts'

export interface ExportSearchParams {
  sector?: string
  city?: string
  department?: string
  region?: string
  country?: string
  filters?: SearchFilters
  maxLeads?: number | null
  onlyNew?: boolean
  /** An export of the member's own list: its file and how many of its rows matched a business. */
  list?: { fileName: string; rows: number; matched: number }
}

/** The search as one line: sector or "all sectors", then the places from the most precise, or "all countries". */
function searchSummary(params: ExportSearchParams, t: (key: string) => string) {
  const places = [params.city, params.department, params.region, params.country].filter(Boolean)
  return { sector: params.sector || t('exports.detail.allSectors'), place: places.length ? places.join(', ') : t('exports.detail.allCountries') }
}

/** The search, the chosen enrichment chips, the lead count and the credits used (with the progress bar). */
export function ExportSummary({
  searchParams,
  chosen,
  leadCount,
  creditsUsed,
  progress,
  excluded,
  reusedCount,
}: {
  searchParams: ExportSearchParams
  chosen: EnrichmentType[]
  leadCount: number
  creditsUsed: number
  progress: number
  excluded: Readonly<Record<string, number>>
  /** Successes reused from earlier purchases, for 0 credits. */
  reusedCount: number
}) {
  const { t, i18n } = useTranslation()
  const summary = searchSummary(searchParams, t)
  const number = numberFormat(i18n.language)
  return (
    <dl className="grid gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4">
      <div className="sm:col-span-2">
        <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t(searchParams.list ? 'exports.detail.list' : 'exports.detail.search')}</dt>
        <dd className="mt-1 text-sm text-slate-900" data-testid="export-source">
          {searchParams.list ? (
            <>
              <span className="font-medium break-all">{searchParams.list.fileName}</span> · {t('exports.detail.listMatched', { matched: number.format(searchParams.list.matched), rows: number.format(searchParams.list.rows) })}
            </>
          ) : (
            <>
              <span className="font-medium">{summary.sector}</span> · {summary.place}
            </>
          )}
        </dd>
        {searchParams.filters ? <ExportSearchLimits filters={searchParams.filters} maxLeads={searchParams.maxLeads ?? null} /> : null}
        <dd className="mt-3 flex flex-wrap gap-1.5" aria-label={t('exports.detail.enrichments')}>
          {chosen.map((type) => (
            <span key={type} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-200 ring-inset">
              {t(`exports.options.${type}`)}
            </span>
          ))}
        </dd>
        {searchParams.onlyNew ? (
          <dd className="mt-2 text-sm text-slate-600" data-testid="only-new">
            ✓ {t('exports.detail.onlyNew')}
          </dd>
        ) : null}
      </div>
      <div>
        <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.leads')}</dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="lead-count">
          {number.format(leadCount)}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.creditsUsed')}</dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="credits-used">
          {number.format(creditsUsed)}
        </dd>
        {reusedCount > 0 ? (
          <dd className="mt-1 text-xs font-medium text-sky-800" data-testid="reused-count">
            {t('exports.detail.reusedFree', { count: reusedCount, formatted: number.format(reusedCount) })}
          </dd>
        ) : null}
        <dd className="mt-2">
          <ProgressBar percent={progress} />
        </dd>
      </div>
      <Exclusions excluded={excluded} />
    </dl>
  )
}

/** What the search left out before enrichment, by reason: nothing of it was charged. */
function Exclusions({ excluded }: { excluded: Readonly<Record<string, number>> }) {
  const { t, i18n } = useTranslation()
  const reasons = Object.entries(excluded).filter(([, count]) => count > 0)
  if (reasons.length === 0) return null
  const number = numberFormat(i18n.language)
  return (
    <div className="sm:col-span-2 lg:col-span-4" data-testid="exclusions">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('exports.detail.leftOut')}</dt>
      {reasons.map(([reason, count]) => (
        <dd key={reason} className="mt-1 text-sm text-slate-700" data-reason={reason}>
          {t(`exports.detail.excluded.${reason}`, { count, formatted: number.format(count) })}
        </dd>
      ))}
    </div>
  )
}
