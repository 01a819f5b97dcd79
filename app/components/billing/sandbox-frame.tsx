import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Logo } from '../logo.tsx'

/**
 * The frame of the payment sandbox pages: they stand in for the payment provider's hosted pages,
 * so they sit outside the app shell, and say loudly that nothing is charged.
 */
export function SandboxFrame({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="min-h-full bg-slate-100">
      <title>{`${title} · LeadAtlas`}</title>
      <div className="border-b border-amber-300 bg-amber-100 px-4 py-2.5 text-center text-sm text-amber-950">
        <p>
          <strong className="font-semibold" data-testid="sandbox-banner">
            {t('billing.sandbox.banner')}
          </strong>
          <span className="hidden sm:inline"> · {t('billing.sandbox.bannerDetail')}</span>
        </p>
      </div>
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-5 sm:px-6">
        <Logo />
        <span className="rounded-full bg-amber-200 px-2.5 py-1 text-xs font-semibold tracking-wide text-amber-950 uppercase">{t('billing.sandbox.badge')}</span>
      </header>
      <main className="mx-auto max-w-4xl px-4 pb-16 sm:px-6">{children}</main>
    </div>
  )
}

export function BackToApp({ to = '/subscription', label }: { to?: string; label?: string }) {
  const { t } = useTranslation()
  return (
    <Link to={to} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:text-brand-900">
      <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        <path d="M12.5 15 7.5 10l5-5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {label ?? t('billing.sandbox.back')}
    </Link>
  )
}

/** A sandbox page that cannot go on (bad or foreign session, no subscription): message + way back. */
export function SandboxMessage({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto mt-6 max-w-lg rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{message}</p>
      <div className="mt-6">
        <BackToApp />
      </div>
    </div>
  )
}
