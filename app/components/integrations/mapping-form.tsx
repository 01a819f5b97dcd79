import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { CRM_FIELD_MODES, CRM_FIELDS, CRM_KEY_FIELDS, CRM_PROVIDER_NAMES, type CrmConnectionView } from '#app/domain/crm.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { Button, buttonClasses } from '../ui/button.tsx'
import { selectClasses } from '../ui/field.tsx'
import { INTEGRATIONS_PATH } from './connection-list.tsx'

/** One select per field: write it, fill it only where the CRM is empty, or never send it. The key is always written. */
export function MappingForm({ connection }: { connection: CrmConnectionView }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'mapping' })
  return (
    <Form method="post" id="mapping" className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <input type="hidden" name="intent" value="mapping" />
      <input type="hidden" name="connectionId" value={connection.id} />
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t('integrations.mappingTitle', { name: `${CRM_PROVIDER_NAMES[connection.provider]} · ${connection.label}` })}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('integrations.mappingHint')}</p>
      </div>
      <div className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {CRM_FIELDS.map((field) => {
          const id = `mapping-${field}`
          const fixed = CRM_KEY_FIELDS.has(field)
          return (
            <div key={field} className="flex items-center justify-between gap-3 border-b border-slate-100 pb-3">
              <label htmlFor={id} className="min-w-0 text-sm font-medium text-slate-700">
                {t(`integrations.fields.${field}`)}
              </label>
              {fixed ? (
                <span className="text-sm text-slate-500" id={id}>
                  {t('integrations.alwaysWritten')}
                </span>
              ) : (
                <select id={id} name={`mapping.${field}`} defaultValue={connection.mapping[field]} className={`${selectClasses} w-40 shrink-0 sm:w-44`}>
                  {CRM_FIELD_MODES.map((mode) => (
                    <option key={mode} value={mode}>
                      {t(`integrations.modes.${mode}`)}
                    </option>
                  ))}
                </select>
              )}
              {fixed ? <input type="hidden" name={`mapping.${field}`} value="overwrite" /> : null}
            </div>
          )
        })}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={INTEGRATIONS_PATH} className={buttonClasses({ variant: 'secondary' })}>
          {t('common.cancel')}
        </Link>
        <Button type="submit" pending={pending}>
          {t('integrations.saveMapping')}
        </Button>
      </div>
    </Form>
  )
}
