import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '../ui/button.tsx'

/** Previous / Next as plain links (they work without JavaScript), keeping the filter and the order. */
export function ExportsPager({ page, pageCount, searchParams }: { page: number; pageCount: number; searchParams: URLSearchParams }) {
  const { t } = useTranslation()
  const href = (target: number) => {
    const next = new URLSearchParams(searchParams)
    next.delete('deleted')
    next.set('page', String(target))
    return `/exports?${next}`
  }
  const linkClass = buttonClasses({ variant: 'secondary' })
  return (
    <nav className="flex items-center justify-between gap-3" aria-label={t('exportsPaging.label')}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass}>
          {t('exports.detail.previous')}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-600">{t('exports.detail.pageOf', { page, pages: pageCount })}</p>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass}>
          {t('exports.detail.next')}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
