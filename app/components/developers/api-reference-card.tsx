import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** The way from Settings to the public API reference (a script-free page: loaded as a document). */
export function ApiReferenceCard() {
  const { t } = useTranslation()
  return (
    <Link
      to="/developers"
      reloadDocument
      className="mt-6 flex items-center justify-between gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 hover:ring-brand-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:px-8"
    >
      <span>
        <span className="block text-base font-semibold text-slate-900">{t('settings.apiTitle')}</span>
        <span className="mt-1 block text-sm text-slate-600">{t('settings.apiHint')}</span>
        <span className="mt-2 block text-sm font-medium text-brand-700">{t('settings.apiLink')}</span>
      </span>
      <span aria-hidden="true" className="text-xl text-slate-400">
        →
      </span>
    </Link>
  )
}
