import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { CRM_LABEL_MAX, CRM_PROVIDER_NAMES, type CrmProvider } from '#app/domain/crm.ts'
import { Field, selectClasses } from '../ui/field.tsx'

/** The CRM and the connection's name: the first row of both connect forms (pasted credential, OAuth). */
export function ProviderLabelFields({ provider, label, providers }: { provider: FieldMetadata<string>; label: FieldMetadata<string>; providers: readonly CrmProvider[] }) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <div>
        <label htmlFor={provider.id} className="block text-sm font-medium text-slate-700">
          {t('integrations.providerLabel')}
        </label>
        <select {...getSelectProps(provider)} className={`mt-1.5 w-full ${selectClasses}`}>
          {providers.map((choice) => (
            <option key={choice} value={choice}>
              {CRM_PROVIDER_NAMES[choice]}
            </option>
          ))}
        </select>
      </div>
      <Field
        label={t('integrations.labelLabel')}
        hint={t('integrations.labelHint')}
        errors={label.errors?.map((error) => t(error, { max: CRM_LABEL_MAX }))}
        inputProps={{ ...getInputProps(label, { type: 'text' }), maxLength: CRM_LABEL_MAX, autoComplete: 'off' }}
      />
    </div>
  )
}
