import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { CRM_PROVIDER_NAMES, type CrmConnectionView, type PushableLead } from '#app/domain/crm.ts'
import { websiteDomain } from '#app/domain/website-domain.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'
import { selectClasses } from '../ui/field.tsx'

interface PushFormProps {
  connections: CrmConnectionView[]
  leadCount: number
  leads: PushableLead[]
  error?: string | undefined
  /** What was sent, kept when the push was refused. */
  sent?: { connectionId?: string; scope?: string; leadIds?: string[] } | undefined
  admin: boolean
}

/**
 * Choose a connection, then every lead or the ticked ones of this page (a plain form: ticking works without
 * JavaScript). A business pushed before is updated, never created again (the report says which).
 */
export function PushForm({ connections, leadCount, leads, error, sent, admin }: PushFormProps) {
  const { t, i18n } = useTranslation()
  const pending = useIsPending({ intent: 'push' })
  if (!connections.length) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-600">
        <p>{t('integrations.noConnection')}</p>
        {admin ? (
          <Link to="/settings/integrations" className="mt-3 inline-block font-medium text-brand-700 hover:underline">
            {t('integrations.connectLink')}
          </Link>
        ) : (
          <p className="mt-2">{t('integrations.askAdmin')}</p>
        )}
      </div>
    )
  }
  const ticked = new Set(sent?.leadIds ?? [])
  return (
    <Form method="post" className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <input type="hidden" name="intent" value="push" />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div>
        <label htmlFor="push-connection" className="block text-sm font-medium text-slate-700">
          {t('integrations.pushTo')}
        </label>
        <select id="push-connection" name="connectionId" defaultValue={sent?.connectionId ?? connections[0]!.id} className={`mt-1.5 w-full sm:max-w-sm ${selectClasses}`}>
          {connections.map((connection) => (
            <option key={connection.id} value={connection.id}>
              {CRM_PROVIDER_NAMES[connection.provider]} · {connection.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">{t('integrations.scopeLegend')}</legend>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="radio" name="scope" value="all" defaultChecked={sent?.scope !== 'selected'} className="size-4 accent-brand-600" />
          {t('integrations.scopeAll', { count: leadCount, formatted: numberFormat(i18n.language).format(leadCount) })}
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="radio" name="scope" value="selected" defaultChecked={sent?.scope === 'selected'} className="size-4 accent-brand-600" />
          {t('integrations.scopeSelected')}
        </label>
      </fieldset>
      <fieldset className="rounded-xl ring-1 ring-slate-200">
        <legend className="sr-only">{t('integrations.leadsLegend')}</legend>
        <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
          {leads.map((lead) => (
            <li key={lead.id}>
              <label className="flex items-start gap-3 px-4 py-2.5 text-sm">
                <input type="checkbox" name="leadIds" value={lead.id} defaultChecked={ticked.has(lead.id)} className="mt-0.5 size-4 shrink-0 accent-brand-600" />
                <span className="min-w-0">
                  <span className="block font-medium break-words text-slate-900">{lead.name}</span>
                  <span className="block break-all text-slate-500">{[lead.city, lead.website ? (websiteDomain(lead.website) ?? lead.website) : null].filter(Boolean).join(' · ')}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" pending={pending}>
          {t('integrations.pushSubmit')}
        </Button>
      </div>
    </Form>
  )
}
