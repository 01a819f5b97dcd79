import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatRunDate, type SavedSearch } from '#app/domain/saved-searches.ts'

/** "N new since the last run · X credits · on <date>", a run in progress, a refusal and why, or never run. */
export function LastRunLine({ saved }: { saved: SavedSearch }) {
  const { t, i18n } = useTranslation()
  const run = saved.lastRun
  if (!run) return <span className="text-slate-600">{t('savedSearches.neverRun')}</span>
  const date = formatRunDate(run.at, saved.schedule.timeZone, i18n.language)
  if (run.status === 'refused') {
    return <span className="text-red-700">{t('savedSearches.refused', { date, reason: t(`savedSearches.refusals.${run.refusal}`, { defaultValue: run.refusal ?? '' }) })}</span>
  }
  const open = run.exportId ? (
    <Link to={`/exports/${run.exportId}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
      {t('savedSearches.openRun')}
    </Link>
  ) : null
  if (run.status === 'processing' || run.status === 'pending') {
    return (
      <span className="flex flex-wrap gap-x-2">
        <span>{t('savedSearches.running', { date })}</span>
        {open}
      </span>
    )
  }
  const newCount = run.newCount ?? 0
  return (
    <span className="flex flex-wrap gap-x-2" data-testid="last-run">
      <span className="font-medium">{newCount === 0 ? t('savedSearches.zeroNew') : t('savedSearches.newSinceLast', { count: newCount })}</span>
      {newCount === 0 ? null : <span className="text-slate-600">· {t('savedSearches.runCredits', { count: run.credits ?? 0 })}</span>}
      <span className="text-slate-600">· {t('savedSearches.ranOn', { date })}</span>
      {open}
      {newCount > 0 && run.status === 'completed' && run.exportId ? (
        // The file in the saved search's columns (its preset).
        <a href={`/api/exports/${run.exportId}/download?format=xlsx&preset=${saved.preset}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {t('savedSearches.downloadRun')}
        </a>
      ) : null}
    </span>
  )
}
