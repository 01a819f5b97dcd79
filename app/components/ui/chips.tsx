import { useTranslation } from 'react-i18next'
import { cn } from '#app/utils/misc.ts'

/** The first `max` items as chips and "+N" for the rest, whose names are in the tooltip. */
export function ChipList({ items, max, nowrap = false }: { items: string[]; max: number; nowrap?: boolean }) {
  const { t } = useTranslation()
  const shown = items.slice(0, max)
  const rest = items.length - shown.length
  return (
    <span className="flex flex-wrap gap-1" title={rest > 0 ? items.join(', ') : undefined}>
      {shown.map((item) => (
        <span key={item} className={cn('rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700', nowrap && 'whitespace-nowrap')}>
          {item}
        </span>
      ))}
      {rest > 0 ? <span className="rounded-md bg-slate-50 px-1.5 py-0.5 text-xs text-slate-500">{t('search.moreCategories', { count: rest })}</span> : null}
    </span>
  )
}
