import { useTranslation } from 'react-i18next'
import type { AppHandle } from './app-layout.tsx'

export const handle: AppHandle = { titleKey: 'pages.search' }

export default function SearchRoute() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-semibold text-slate-900">{t('search.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('search.comingSoon')}</p>
    </section>
  )
}
