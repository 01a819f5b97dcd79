import { useTranslation } from 'react-i18next'
import { Form, useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'

const LANGUAGES = [
  { code: 'fr', labelKey: 'header.languageFr' },
  { code: 'en', labelKey: 'header.languageEn' },
] as const

export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const location = useLocation()
  const current = i18n.language
  return (
    <Form method="post" action="/preferences" className={cn('flex items-center', className)} aria-label={t('header.language')} role="group">
      <input type="hidden" name="intent" value="language" />
      {/* data-current-url: a page that changes its URL in place without React (app/islands/login-page.ts) updates it. */}
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} data-current-url />
      <div className="inline-flex rounded-lg bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset">
        {LANGUAGES.map(({ code, labelKey }) => (
          <button
            key={code}
            type="submit"
            name="language"
            value={code}
            lang={code}
            aria-pressed={current === code}
            className={cn(
              'rounded-md px-2.5 py-1 text-xs font-medium transition-colors',
              current === code ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <span className="hidden sm:inline">{t(labelKey)}</span>
            <span className="sm:hidden" aria-hidden="true">
              {code.toUpperCase()}
            </span>
            <span className="sr-only sm:hidden">{t(labelKey)}</span>
          </button>
        ))}
      </div>
    </Form>
  )
}
