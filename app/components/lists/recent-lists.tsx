import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { ListSummary } from '#app/domain/list-views.ts'
import { numberFormat } from '#app/utils/number-format.ts'

const STAGE_CLASSES: Record<ListSummary['stage'], string> = {
  mapping: 'bg-amber-50 text-amber-800 ring-amber-200',
  ready: 'bg-brand-50 text-brand-700 ring-brand-200',
  launched: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
}

/** The workspace's latest uploads, each a link to where it stands (its mapping, its confirm page, its export). */
export function RecentLists({ lists }: { lists: ListSummary[] }) {
  const { t, i18n } = useTranslation()
  if (lists.length === 0) return null
  const format = (value: number) => numberFormat(i18n.language).format(value)
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' })
  const href = (list: ListSummary) => (list.stage === 'launched' && list.exportId ? `/exports/${list.exportId}` : list.stage === 'ready' ? `/lists/${list.id}/confirm` : `/lists/${list.id}`)
  return (
    <section aria-labelledby="recent-lists-title" className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 id="recent-lists-title" className="border-b border-slate-100 px-6 py-4 text-sm font-semibold text-slate-900">
        {t('lists.recent.title')}
      </h2>
      <ul className="divide-y divide-slate-100" data-testid="recent-lists">
        {lists.map((list) => (
          <li key={list.id}>
            <Link to={href(list)} className="flex flex-col gap-1 px-6 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600 sm:flex-row sm:items-center sm:justify-between">
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-slate-900">{list.fileName}</span>
                <span className="block text-xs text-slate-500">
                  {t('lists.recent.rows', { count: list.rowCount, formatted: format(list.rowCount) })} · {date.format(new Date(list.createdAt))}
                </span>
              </span>
              <span className={`inline-flex w-fit shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STAGE_CLASSES[list.stage]}`}>{t(`lists.recent.stage.${list.stage}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
