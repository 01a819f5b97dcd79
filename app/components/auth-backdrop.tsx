import { useTranslation } from 'react-i18next'
import { FREE_TRIAL_CREDITS } from '#app/domain/plans.ts'
import { LanguageSwitcher } from './layout/language-switcher.tsx'
import { Logo } from './logo.tsx'

/** The public pages' frame: brand, what LeadAtlas does for a prospector, and the auth dialog beside it. */
export function AuthBackdrop({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-full bg-gradient-to-br from-brand-50 via-white to-slate-100">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-4 py-5 sm:px-6">
        <Logo />
        <LanguageSwitcher />
      </header>
      <main className="mx-auto grid max-w-6xl items-start gap-10 px-4 pt-6 pb-16 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:pt-12">
        {/* The form comes first on phones; the pitch follows it. */}
        <div className="w-full lg:order-2">{children}</div>
        <ValuePanel />
      </main>
    </div>
  )
}

const BENEFITS = [
  { icon: 'mail', title: 'authPanel.emailsTitle', body: 'authPanel.emailsBody' },
  { icon: 'registry', title: 'authPanel.registryTitle', body: 'authPanel.registryBody' },
  { icon: 'coin', title: 'authPanel.payTitle', body: 'authPanel.payBody' },
] as const

function ValuePanel() {
  const { t, i18n } = useTranslation()
  return (
    <section aria-labelledby="auth-panel-title" className="max-w-xl lg:order-1 lg:pt-4">
      <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-3 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200">
        <span className="size-1.5 rounded-full bg-brand-600" aria-hidden="true" />
        {t('authPanel.eyebrow')}
      </p>
      <h2 id="auth-panel-title" className="mt-4 text-2xl font-semibold tracking-tight text-balance text-slate-900 sm:text-3xl lg:text-4xl">
        {t('app.tagline')}
      </h2>
      <p className="mt-3 text-base text-pretty text-slate-600">{t('authPanel.subtitle')}</p>
      <ul aria-label={t('authPanel.benefitsLabel')} className="mt-8 space-y-3">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title} className="flex gap-4 rounded-2xl bg-white/80 p-4 shadow-sm ring-1 ring-slate-200/80 backdrop-blur">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-600 text-white shadow-sm">
              <BenefitIcon name={benefit.icon} />
            </span>
            <span>
              <span className="block text-sm font-semibold text-slate-900">{t(benefit.title)}</span>
              <span className="mt-0.5 block text-sm text-slate-600">{t(benefit.body)}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-6 flex items-center gap-2 text-sm font-medium text-slate-700">
        <svg viewBox="0 0 20 20" className="size-5 text-emerald-600" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {t('authPanel.trial', { count: FREE_TRIAL_CREDITS, formatted: new Intl.NumberFormat(i18n.language).format(FREE_TRIAL_CREDITS) })}
      </p>
    </section>
  )
}

const ICON_PATHS = {
  mail: 'M3.5 6.5A1.5 1.5 0 0 1 5 5h14a1.5 1.5 0 0 1 1.5 1.5v11A1.5 1.5 0 0 1 19 19H5a1.5 1.5 0 0 1-1.5-1.5zm.5.5 8 6 8-6',
  registry: 'M4 20h16M5 20V10m4.7 10V10m4.6 10V10M19 20V10M3.5 10h17L12 4z',
  coin: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-14v10m2.8-7.6c-.5-.9-1.6-1.4-2.8-1.4-1.7 0-3 .9-3 2s1.3 1.8 3 2 3 .9 3 2-1.3 2-3 2c-1.2 0-2.3-.5-2.8-1.4',
} as const

function BenefitIcon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={ICON_PATHS[name]} />
    </svg>
  )
}
