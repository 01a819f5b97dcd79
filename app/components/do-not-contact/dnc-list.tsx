import { useTranslation } from 'react-i18next'
import { CRM_PROVIDER_NAMES } from '#app/domain/crm-providers.ts'
import { Form, Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { DNC_PATH, type DncListedEntry } from '#app/domain/do-not-contact.ts'
import { formatDate } from '#app/utils/dates.ts'

interface DncListPage {
  entries: Array<DncListedEntry & { id: string }>
  total: number
  page: number
  pageCount: number
}

/** The list, newest first, one page at a time; each entry has its own remove form (works without JavaScript). */
export function DncList({ page, canRemove = true }: { page: DncListPage; canRemove?: boolean }) {
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
            <DncListItem key={entry.id} entry={entry} canRemove={canRemove} />
          ))}
        </ul>
      )}
      {page.pageCount > 1 ? <Pager page={page.page} pageCount={page.pageCount} /> : null}
    </div>
  )
}

/**
 * One entry: a business by the name and city its lead had when it was listed (its id, for a business never seen in
 * the user's leads, or any other kind: the value itself), then the day it was added.
 */
function DncListItem({ entry, canRemove }: { entry: DncListedEntry & { id: string }; canRemove: boolean }) {
  const { t, i18n } = useTranslation()
  const label = entry.name ?? entry.value
  const details = [
    entry.name ? entry.city : null,
    t('doNotContact.addedOn', { date: formatDate(entry.createdAt, i18n.language, t) }),
    entry.source ? t('doNotContact.fromCrm', { crm: CRM_PROVIDER_NAMES[entry.source] }) : null,
  ]
    .filter(Boolean)
    .join(' · ')
  return (
    <li className="flex items-center gap-3 px-4 py-3 sm:px-6" data-testid="dnc-entry">
      <span className="w-20 shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-center text-xs font-medium text-slate-700 sm:w-24">{t(`doNotContact.kinds.${entry.kind}`)}</span>
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words text-slate-900 [overflow-wrap:anywhere]" title={entry.name ? `${entry.name} (${entry.value})` : entry.value} data-testid="dnc-entry-label">
          {label}
        </p>
        <p className="text-xs text-slate-500" data-testid="dnc-entry-details">
          {details}
        </p>
      </div>
      {/* Removing lets the team contact someone again: admins only (the command checks it too). */}
      {canRemove ? (
        <Form method="post" action={DNC_PATH} className="shrink-0">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={entry.id} />
          <button type="submit" className={buttonClasses({ variant: 'secondary', size: 'sm' })} aria-label={t('doNotContact.removeLabel', { value: label })}>
            {t('doNotContact.remove')}
          </button>
        </Form>
      ) : null}
    </li>
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
