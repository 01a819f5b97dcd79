import { useTranslation } from 'react-i18next'
import { LanguageSwitcher } from './layout/language-switcher.tsx'
import { Logo } from './logo.tsx'

/** The public pages' frame: brand, tagline and the language switcher around the auth dialogs. */
export function AuthBackdrop({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="min-h-full bg-gradient-to-br from-brand-50 via-white to-slate-100">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-4 py-5 sm:px-6">
        <Logo />
        <LanguageSwitcher />
      </header>
      <main className="mx-auto grid max-w-6xl items-start gap-10 px-4 pt-6 pb-16 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:pt-16">
        <p className="hidden max-w-md text-3xl font-semibold tracking-tight text-slate-900 lg:block lg:text-4xl">{t('app.tagline')}</p>
        <div className="w-full">{children}</div>
      </main>
    </div>
  )
}
