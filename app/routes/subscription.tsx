import { useTranslation } from 'react-i18next'
import { useRouteLoaderData } from 'react-router'
import type { AppHandle } from './app-layout.tsx'
import type { loader as appLoader } from './app-layout.tsx'

export const handle: AppHandle = { titleKey: 'pages.subscription' }

export default function SubscriptionRoute() {
  const { t } = useTranslation()
  const layout = useRouteLoaderData<typeof appLoader>('routes/app-layout')
  const plan = layout?.credits.plan ?? 'free_trial'
  return (
    <section className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-semibold text-slate-900">{t('subscription.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('subscription.currentPlan', { plan: t(`plans.${plan}`) })}</p>
    </section>
  )
}
