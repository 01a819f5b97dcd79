import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { DNC_PATH, type DncKind } from '#app/domain/do-not-contact.ts'

interface DncListPage {
  entries: Array<{ id: string; kind: DncKind; value: string }>
  total: number
  page: number
  pageCount: number
}

/** The list, newest first, one page at a time; each entry has its own remove form (works without JavaScript). */
export function DncList({ page }: { page: DncListPage }) {
  const { t, i18n } = useTranslation()
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-6 py-4">
        <h2 className="text-base font-semibold text-slate-900">{t('doNotContact.listTitle')}</h2>
        <p className="text-sm text-slate-600" data-testid="dnc-count">
          {t('doNotContact.count', { count: page.total, formatted: number.format(page.total) })}
        </p>
      </div>
      {page.entries.length === 0 ? (
        <p className="px-6 py-8 text-center text-sm text-slate-500">{t('doNotContact.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t('doNotContact.listTitle')}>
          {page.entries.map((entry) => (
            <li key={entry.id} className="flex items-center gap-3 px-6 py-3" data-testid="dnc-entry">
              <span className="w-24 shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-center text-xs font-medium text-slate-700">{t(`doNotContact.kinds.${entry.kind}`)}</span>
              <span className="min-w-0 flex-1 truncate text-sm text-slate-900" title={entry.value}>
                {entry.value}
              </span>
              <Form method="post" action={DNC_PATH}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={entry.id} />
                <button type="submit" className={buttonClasses({ variant: 'secondary', size: 'sm' })} aria-label={t('doNotContact.removeLabel', { value: entry.value })}>
                  {t('doNotContact.remove')}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {page.pageCount > 1 ? <Pager page={page.page} pageCount={page.pageCount} /> : null}
    </div>
  )
}

function Pager({ page, pageCount }: { page: number; pageCount: number }) {
  const { t } = useTranslation()
  const link = (target: number, label: string, rel: 'prev' | 'next') =>
    target >= 1 && target <= pageCount ? (
      <Link to={`${DNC_PATH}?page=${target}`} rel={rel} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'pointer-events-none opacity-50' })}>
        {label}
      </span>
    )
  return (
    <nav className="flex items-center justify-between gap-3 border-t border-slate-100 px-6 py-3" aria-label={t('exports.detail.pageOf', { page, pages: pageCount })}>
      <p className="text-sm text-slate-600">{t('exports.detail.pageOf', { page, pages: pageCount })}</p>
      <div className="flex gap-2">
        {link(page - 1, t('exports.detail.previous'), 'prev')}
        {link(page + 1, t('exports.detail.next'), 'next')}
      </div>
    </nav>
  )
}
