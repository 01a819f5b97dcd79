import { useTranslation } from 'react-i18next'

/** Where a "created after" answer comes from: the local copy of the Sirene register, and the last day imported. */
export function StoreSourceNote({ createdAfter, importedUpTo }: { createdAfter: string; importedUpTo: string | null }) {
  const { t, i18n } = useTranslation()
  const day = (value: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`))
  return (
    <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset" data-testid="companies-store-source">
      {importedUpTo ? t('companies.store.source', { date: day(createdAfter), day: day(importedUpTo) }) : t('companies.store.notImported', { date: day(createdAfter) })}
    </p>
  )
}
