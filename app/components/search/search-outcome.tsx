import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { MatchCount, PreviewLead } from '#app/domain/search.ts'
import { searchDialogHref } from '#app/utils/search-dialogs.ts'
import { MatchCountLine } from './match-count-line.tsx'
import { Alert } from '../ui/alert.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { EmptyResults, ResultsSkeleton, ResultsTable, SearchError } from './results.tsx'

/** What the loader's preview run gave: results, an error, or the plan's refusal (shown as a modal). */
export type SearchOutcome =
  | { status: 'ok'; results: PreviewLead[]; source: string; count: MatchCount }
  /** `field`: the location was refused; the form shows the message (SearchForm's locationError). */
  | { status: 'error'; message: string; field?: string }
  | { status: 'plan'; message: string; modalKey: string }

/**
 * Below the form: the skeleton while searching, a stale-results warning once the form no longer matches the
 * search shown (`current` false), the error, the results with the "Enrich and export" link, or the start hint.
 */
export function SearchOutcomePanel({ search, current, searching, pageSearch }: { search: SearchOutcome | null; current: boolean; searching: boolean; pageSearch: string }) {
  const { t } = useTranslation()
  if (searching) return <ResultsSkeleton />
  if (!search) return <EmptyResults titleKey="search.startTitle" bodyKey="search.startBody" />
  if (!current) return search.status === 'ok' ? <Alert tone="warning">{t('search.staleResults')}</Alert> : null
  if (search.status === 'error') return search.field ? null : <SearchError message={search.message} />
  if (search.status !== 'ok') return null
  if (search.results.length === 0) return <EmptyResults titleKey="search.emptyTitle" bodyKey="search.emptyBody" />
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-base font-semibold text-slate-900">
          {t('search.results')} <span className="font-normal text-slate-500">· {t('search.resultsCount', { count: search.results.length })}</span>
        </h2>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link to={searchDialogHref(pageSearch, 'save')} className={buttonClasses({ variant: 'secondary' })}>
            {t('savedSearches.save.button')}
          </Link>
          <Link to={searchDialogHref(pageSearch, 'export')} className={buttonClasses()}>
            {t('search.enrichAndExport')}
          </Link>
        </div>
      </div>
      <MatchCountLine count={search.count} />
      <ResultsTable results={search.results} />
      {search.source === 'osm' ? <p className="text-xs text-slate-500">{t('search.osmAttribution')}</p> : null}
    </div>
  )
}
