import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { AppHandle } from './app-layout.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'

export const handle: AppHandle = { titleKey: 'pages.exports' }

export default function ExportsRoute() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-5xl">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold text-slate-900">{t('exports.title')}</h1>
        <Link to="/" className={buttonClasses()}>
          {t('exports.newExport')}
        </Link>
      </div>
      <p className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center text-sm text-slate-600">{t('exports.empty')}</p>
    </section>
  )
}
