import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '../ui/button.tsx'
import { numberFormat } from '#app/utils/number-format.ts'

const PAGE_SIZE = 10

/** "Showing x–y of z" and Previous / Next as plain links (they work without JavaScript); an end is a dimmed label. */
export function LeadsPager({ base, page, pageCount, total, pageSize = PAGE_SIZE }: { base: string; page: number; pageCount: number; total: number; pageSize?: number }) {
  const { t, i18n } = useTranslation()
  const number = numberFormat(i18n.language)
  return (
    <nav className="flex items-center justify-between gap-3" aria-label={t('exports.detail.pageOf', { page, pages: pageCount })}>
      <p className="text-sm text-slate-600">
        {t('exports.detail.showing', {
          from: number.format((page - 1) * pageSize + 1),
          to: number.format(Math.min(page * pageSize, total)),
          total: number.format(total),
        })}
      </p>
      <div className="flex gap-2">
        <PageLink href={page > 1 ? `${base}?page=${page - 1}` : null} rel="prev" label={t('exports.detail.previous')} />
        <PageLink href={page < pageCount ? `${base}?page=${page + 1}` : null} rel="next" label={t('exports.detail.next')} />
      </div>
    </nav>
  )
}

function PageLink({ href, rel, label }: { href: string | null; rel: 'prev' | 'next'; label: string }) {
  if (!href) {
    return (
      <span className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'pointer-events-none opacity-50' })} aria-disabled="true">
        {label}
      </span>
    )
  }
  return (
    <Link to={href} className={buttonClasses({ variant: 'secondary', size: 'sm' })} rel={rel}>
      {label}
    </Link>
  )
}
