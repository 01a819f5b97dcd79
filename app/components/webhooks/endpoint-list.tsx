import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import type { WebhookEndpointView } from '#app/domain/webhooks.ts'
import { EndpointState } from './endpoint-state.tsx'
import { eventLabel } from './event-checkboxes.tsx'

/** The user's endpoints: URL, events, state, and a link to each one's page. */
export function EndpointList({ endpoints }: { endpoints: WebhookEndpointView[] }) {
  const { t } = useTranslation()
  if (endpoints.length === 0) return <p className="text-sm text-slate-600">{t('webhooks.noEndpoints')}</p>
  return (
    <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label={t('webhooks.listTitle')}>
      {endpoints.map((endpoint) => (
        <li key={endpoint.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="webhook-endpoint-row">
          <div className="min-w-0 space-y-1">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm break-all text-slate-900">{endpoint.url}</span>
              <EndpointState endpoint={endpoint} />
            </p>
            <p className="text-xs text-slate-600">{endpoint.events.map((event) => eventLabel(t, event)).join(' · ')}</p>
          </div>
          <Link to={`/settings/api/webhooks/${endpoint.id}`} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'shrink-0 self-start sm:self-center' })} aria-label={t('webhooks.manageNamed', { url: endpoint.url })}>
            {t('webhooks.manage')}
          </Link>
        </li>
      ))}
    </ul>
  )
}
