import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DNC_PATH } from '#app/domain/do-not-contact.ts'

/** The way from Settings to the do-not-contact list. */
export function DoNotContactCard() {
  const { t } = useTranslation()
  return (
    <Link
      to={DNC_PATH}
      className="mt-6 flex items-center justify-between gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 hover:ring-brand-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:px-8"
    >
      <span>
        <span className="block text-base font-semibold text-slate-900">{t('settings.doNotContactLink')}</span>
        <span className="mt-1 block text-sm text-slate-600">{t('settings.doNotContactHint')}</span>
      </span>
      <span aria-hidden="true" className="text-xl text-slate-400">
        →
      </span>
    </Link>
  )
}
