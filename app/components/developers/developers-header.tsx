import { useTranslation } from 'react-i18next'
import { LanguageSwitcher } from '#app/components/layout/language-switcher.tsx'
import { Logo } from '#app/components/logo.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'

/** The public pages' header: brand, where the reader is, language, and the way into the app. */
export function DevelopersHeader({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation()
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <Logo className="w-fit" wordmarkClassName="max-[340px]:sr-only" />
          <span className="hidden h-6 w-px bg-slate-200 sm:block" aria-hidden="true" />
          <span className="hidden truncate text-sm font-medium text-slate-600 sm:block">{t('developers.header.section')}</span>
        </div>
        <LanguageSwitcher />
        {signedIn ? (
          <a href="/" className={buttonClasses({ size: 'sm', className: 'shrink-0' })}>
            {t('developers.header.openApp')}
          </a>
        ) : (
          <a href="/login?redirectTo=%2Fdevelopers" className={buttonClasses({ size: 'sm', className: 'shrink-0' })}>
            {t('developers.header.signIn')}
          </a>
        )}
      </div>
    </header>
  )
}
