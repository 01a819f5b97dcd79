import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { CRM_LABEL_MAX, CRM_PROVIDERS, CrmConnectSchema } from '#app/domain/crm.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { ConnectFormHeader } from './connect-form-header.tsx'
import { ProviderLabelFields } from './provider-label-fields.tsx'

const TEXTAREA =
  'block w-full rounded-lg border-0 px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none focus:ring-inset aria-[invalid=true]:ring-red-400'

/**
 * Connect a CRM: provider, a name for the connection, the credential (a token, or for Google Sheets a service-account
 * file's JSON) and, for Sheets, the spreadsheet. The server tries the credential before storing it; the credential
 * is never sent back into the page, the other fields are.
 */
export function ConnectForm({ lastResult, disabled }: { lastResult?: SubmissionResult<string[]> | null | undefined; disabled: boolean }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'connect' })
  const [form, fields] = useForm<z.input<typeof CrmConnectSchema>>({
    id: 'crm-connect',
    lastResult,
    defaultValue: { provider: 'hubspot' },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CrmConnectSchema }),
  })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: CRM_LABEL_MAX }))
  const secretErrors = translate(fields.secret.errors)
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <ConnectFormHeader title={t('integrations.connectTitle')} hint={t('integrations.connectHint')} errors={form.errors} errorId={form.errorId} intent="connect" />
      <ProviderLabelFields provider={fields.provider} label={fields.label} providers={CRM_PROVIDERS} />
      <div>
        <label htmlFor={fields.secret.id} className="block text-sm font-medium text-slate-700">
          {t('integrations.secretLabel')}
        </label>
        <p id={`${fields.secret.id}-hint`} className="mt-1 text-sm text-slate-500">
          {t('integrations.secretHint')}
        </p>
        <textarea
          {...getTextareaProps(fields.secret, { ariaDescribedBy: `${fields.secret.id}-hint` })}
          rows={3}
          spellCheck={false}
          autoComplete="off"
          className={`mt-1.5 ${TEXTAREA}`}
          placeholder="pat-eu1-…"
        />
        {secretErrors?.length ? <p className="mt-1.5 text-sm text-red-600">{secretErrors.join(' ')}</p> : null}
      </div>
      <Field
        label={t('integrations.spreadsheetLabel')}
        hint={t('integrations.spreadsheetHint')}
        errors={translate(fields.spreadsheet.errors)}
        inputProps={{ ...getInputProps(fields.spreadsheet, { type: 'text' }), inputMode: 'url', autoComplete: 'off', placeholder: 'https://docs.google.com/spreadsheets/d/…' }}
      />
      <div className="flex justify-end">
        <Button type="submit" pending={pending} disabled={disabled}>
          {t('integrations.connect')}
        </Button>
      </div>
    </Form>
  )
}
