import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation } from 'react-router'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { formatRunDate, savedFilters, scheduleLabel, type SavedSearch } from '#app/domain/saved-searches.ts'
import { hasFilters } from '#app/domain/search-filters.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { ExportSearchLimits } from '../exports/export-search-limits.tsx'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { LastRunLine } from './last-run-line.tsx'

type CardSearch = SavedSearch & { categoryLabel: string; runKey: string }

/** One saved search: what it searches, its last run and next run, and its actions (each a plain form or link). */
export function SavedSearchCard({ saved, error }: { saved: CardSearch; error?: string }) {
  const { t, i18n } = useTranslation()
  const navigation = useNavigation()
  // This card's run only: every card posts the same intent.
  const running = useIsPending({ intent: 'run' }) && navigation.formData?.get('id') === saved.id
  const { criteria } = saved
  const place = [criteria.city, criteria.department, criteria.region, criteria.country].filter(Boolean).join(' · ')
  const schedule = scheduleLabel(saved.schedule, i18n.language)
  const filters = savedFilters(saved.filters)
  return (
    <li className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6" data-testid="saved-search">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{saved.name}</h2>
          {saved.kind === 'new_companies' ? <WatchKind saved={saved} /> : null}
          {saved.schedule.kind === 'none' ? null : <p className="mt-0.5 text-sm text-slate-600">{t(schedule.key, schedule.values)}</p>}
        </div>
        <NextRunBadge saved={saved} />
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('savedSearches.place')}</dt>
          <dd className="mt-0.5 text-slate-900">{place}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t(saved.kind === 'new_companies' ? 'savedSearches.watch.activity' : 'savedSearches.category')}</dt>
          <dd className="mt-0.5 text-slate-900">{saved.kind === 'new_companies' ? watchActivity(saved.registryFilters) || t('savedSearches.watch.anyActivity') : saved.categoryLabel || t('search.allSectors')}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('savedSearches.filters')}</dt>
          {hasFilters(filters) || saved.maxLeads !== null ? (
            <ExportSearchLimits filters={filters} maxLeads={saved.maxLeads} />
          ) : (
            <dd className="mt-0.5 text-slate-900">{t('savedSearches.noFilters')}</dd>
          )}
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('savedSearches.enrichments')}</dt>
          <dd className="mt-0.5 text-slate-900">{ENRICHMENT_TABLE.filter((type) => saved.enrichments.includes(type.key)).map((type) => t(type.labelKey)).join(', ')}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('savedSearches.lastRun')}</dt>
          <dd className="mt-0.5 text-slate-900">
            <LastRunLine saved={saved} />
            {saved.kind === 'new_companies' && saved.watchWaiting > 0 ? (
              <span className="block text-slate-600" data-testid="watch-waiting">
                {t('savedSearches.watch.waiting', { count: saved.watchWaiting })}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      {error ? <Alert tone="error" className="mt-4">{error}</Alert> : null}
      <div className="mt-5 flex flex-col gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:flex-wrap sm:items-center" role="group" aria-label={t('savedSearches.actionsFor', { name: saved.name })}>
        <Form method="post">
          <input type="hidden" name="id" value={saved.id} />
          <input type="hidden" name="idempotencyKey" value={saved.runKey} />
          <Button type="submit" name="intent" value="run" pending={running} className="w-full sm:w-auto">
            {t('savedSearches.runNow')}
          </Button>
        </Form>
        <Link to={`/saved-searches/${saved.id}`} className={buttonClasses({ variant: 'secondary' })}>
          {t('savedSearches.edit')}
        </Link>
        {saved.schedule.kind === 'none' ? null : (
          <Form method="post">
            <input type="hidden" name="id" value={saved.id} />
            <Button type="submit" name="intent" value={saved.paused ? 'resume' : 'pause'} variant="secondary" className="w-full sm:w-auto">
              {saved.paused ? t('savedSearches.resume') : t('savedSearches.pause')}
            </Button>
          </Form>
        )}
        <Link to={`/saved-searches?delete=${saved.id}`} preventScrollReset className={buttonClasses({ variant: 'ghost', className: 'text-red-700 hover:text-red-800 sm:ml-auto' })}>
          {t('savedSearches.delete')}
        </Link>
      </div>
    </li>
  )
}

/** The next run's date in the search's zone, or why there is none. */
function NextRunBadge({ saved }: { saved: SavedSearch }) {
  const { t, i18n } = useTranslation()
  if (saved.paused && saved.schedule.kind !== 'none') {
    return <span className="shrink-0 self-start rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">{t('savedSearches.paused')}</span>
  }
  if (!saved.nextRunAt) {
    return <span className="shrink-0 self-start rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">{t('savedSearches.noSchedule')}</span>
  }
  return (
    <p className="shrink-0 text-sm text-slate-700 sm:text-right">
      <span className="block text-xs font-medium tracking-wide text-slate-500 uppercase">{t('savedSearches.nextRun')}</span>
      <time dateTime={saved.nextRunAt}>{formatRunDate(saved.nextRunAt, saved.schedule.timeZone, i18n.language)}</time>
    </p>
  )
}

/** A watch's activity codes, as stored (registryFiltersSchema's nafCodes). */
function watchActivity(filters: Record<string, unknown> | null): string {
  const codes = filters?.nafCodes
  return Array.isArray(codes) ? codes.filter((code) => typeof code === 'string').join(', ') : ''
}

/** "New companies · weekly": what a watch is, said before its schedule. */
function WatchKind({ saved }: { saved: SavedSearch }) {
  const { t } = useTranslation()
  const key = saved.schedule.kind === 'monthly' ? 'savedSearches.watch.kindMonthly' : saved.schedule.kind === 'weekly' ? 'savedSearches.watch.kindWeekly' : 'savedSearches.watch.kind'
  return (
    <p className="mt-0.5 text-sm font-medium text-brand-700" data-testid="saved-search-kind">
      {t(key)}
    </p>
  )
}
