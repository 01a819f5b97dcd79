import { useTranslation } from 'react-i18next'
import type { CreditsSummary } from '#app/domain/plans.ts'
import { CreditsMenu } from './credits-menu.tsx'
import { Icon } from './icons.tsx'
import { LanguageSwitcher } from './language-switcher.tsx'
import { MobileDrawer } from './mobile-drawer.tsx'

export function Header({ title, credits, bookDemoUrl }: { title: string; credits: CreditsSummary; bookDemoUrl: string }) {
  const { t } = useTranslation()
  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white px-4 sm:px-6 lg:px-8">
      <MobileDrawer />
      <p className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900" aria-hidden="true">
        {title}
      </p>
      <a
        href={bookDemoUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="hidden items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 md:flex"
      >
        {t('header.bookDemo')}
        <Icon name="external" className="size-4" />
      </a>
      <LanguageSwitcher />
      <CreditsMenu credits={credits} />
    </header>
  )
}
