import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { CRM_OPT_OUT_PROVIDERS, CRM_PROVIDER_NAMES, type CrmConnectionView } from '#app/domain/crm.ts'
import { formatDate } from '#app/utils/dates.ts'
import { Button, buttonClasses } from '../ui/button.tsx'

export const INTEGRATIONS_PATH = '/settings/integrations'

function Health({ connection }: { connection: CrmConnectionView }) {
  const { t, i18n } = useTranslation()
  if (connection.lastError) {
    return (
      <p className="text-sm text-red-700" data-testid="connection-error">
        {t('integrations.failing', { reason: connection.lastError })}
      </p>
    )
  }
  return <p className="text-sm text-emerald-700">{connection.lastCheckedAt ? t('integrations.healthy', { date: formatDate(connection.lastCheckedAt, i18n.language, t, 'dateTime') }) : t('integrations.notChecked')}</p>
}

function Actions({ connection }: { connection: CrmConnectionView }) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-wrap gap-2">
      <Form method="post">
        <input type="hidden" name="intent" value="test" />
        <input type="hidden" name="connectionId" value={connection.id} />
        <Button type="submit" variant="secondary" size="sm">
          {t('integrations.test')}
        </Button>
      </Form>
      <Link to={`${INTEGRATIONS_PATH}?mapping=${connection.id}#mapping`} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
        {t('integrations.editMapping')}
      </Link>
      <Link to={`${INTEGRATIONS_PATH}?disconnect=${connection.id}`} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'text-red-700! hover:bg-red-50!' })}>
        {t('integrations.disconnect')}
      </Link>
    </div>
  )
}

/** The workspace's connections; admins get their actions (test, mapping, disconnect). */
export function ConnectionList({ connections, admin }: { connections: CrmConnectionView[]; admin: boolean }) {
  const { t, i18n } = useTranslation()
  if (!connections.length) {
    return <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-600">{t('integrations.empty')}</p>
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      {connections.map((connection) => (
        <li key={connection.id} className="flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:justify-between sm:p-6" data-testid="crm-connection">
          <div className="min-w-0 space-y-1">
            <p className="font-medium break-words text-slate-900">
              {CRM_PROVIDER_NAMES[connection.provider]} · {connection.label}
            </p>
            <p className="text-sm break-all text-slate-500">
              {t('integrations.credential', { hint: connection.secretHint })}
              {connection.spreadsheetId ? ` · ${t('integrations.sheet', { id: connection.spreadsheetId })}` : ''}
            </p>
            <Health connection={connection} />
            {CRM_OPT_OUT_PROVIDERS.has(connection.provider) ? (
              <p className="text-sm text-slate-500">
                {connection.optOutsSyncedAt ? t('integrations.optOutsSynced', { date: formatDate(connection.optOutsSyncedAt, i18n.language, t, 'dateTime') }) : t('integrations.optOutsPending')}
              </p>
            ) : null}
          </div>
          {admin ? <Actions connection={connection} /> : null}
        </li>
      ))}
    </ul>
  )
}
