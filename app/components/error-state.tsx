import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from './ui/button.tsx'

export function ErrorState({ status, message }: { status: number; message?: string }) {
  const { t } = useTranslation()
  const title = status === 404 ? t('notFound.title') : status === 503 ? t('errorPage.unavailableTitle') : t('errorPage.title')
  const body =
    message ??
    (status === 404 ? t('notFound.body') : status === 503 ? t('errorPage.unavailable') : status === 403 ? t('errorPage.forbidden') : status >= 400 && status < 500 ? t('errorPage.badRequest') : t('errorPage.body'))
  return (
    <div className="animate-fade-in w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <p className="text-sm font-semibold text-brand-600">{status}</p>
      <h1 className="mt-2 text-xl font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{body}</p>
      <Link to="/" className={buttonClasses({ className: 'mt-6' })}>
        {t('notFound.home')}
      </Link>
    </div>
  )
}
