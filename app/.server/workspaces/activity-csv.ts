import { stringify } from 'csv-stringify/sync'
import type { TFunction } from 'i18next'
import { neutralizeFormulaReversibly } from '#app/.server/exports/download/formulas.ts'
import type { ActivityEntry } from './activity.ts'

/** The log as CSV in the reader's language: date, who, event code, what (as the page words it), subject. */
export function activityCsv(entries: readonly ActivityEntry[], t: TFunction): string {
  const safe = (value: string | null) => (value === null ? '' : neutralizeFormulaReversibly(value))
  const rows = entries.map((entry) => [
    entry.createdAt,
    safe(entry.actor ?? t('team.activity.someoneGone')),
    entry.kind,
    safe(t(`team.activity.kinds.${entry.kind}`, { subject: entry.subject ?? '', count: Number(entry.data.count ?? 0) })),
    safe(entry.subject),
  ])
  return `\uFEFF${stringify(rows, { header: true, columns: ['date', 'actor', 'event', 'description', 'subject'] })}`
}
