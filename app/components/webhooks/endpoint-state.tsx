import { useTranslation } from 'react-i18next'
import type { WebhookEndpointView } from '#app/domain/webhooks.ts'
import { formatDate } from '#app/utils/dates.ts'

/** Active, failing since…, or disabled (by its owner, or after 3 days of failures). */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpointView }) {
  const { t, i18n } = useTranslation()
  if (!endpoint.enabled) {
    return (
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
        {endpoint.disabledReason === 'failing' ? t('webhooks.state.disabledFailing') : t('webhooks.state.disabled')}
      </span>
    )
  }
  if (endpoint.failingSince) {
    return (
      <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
        {t('webhooks.state.failing', { date: formatDate(endpoint.failingSince, i18n.language, t, 'dateTime') })}
      </span>
    )
  }
  return <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">{t('webhooks.state.active')}</span>
}
