import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { CRM_LABEL_MAX, CrmOAuthStartSchema } from '#app/domain/crm.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { ConnectFormHeader } from './connect-form-header.tsx'
import { ProviderLabelFields } from './provider-label-fields.tsx'

/**
 * "Connect with HubSpot / Pipedrive / Google": no credential to paste, the CRM asks its user to approve and sends
 * them back. Offered only for the CRMs this deployment has an OAuth app for.
 */
export function OAuthConnectForm({ providers, lastResult, disabled }: { providers: ReadonlyArray<'hubspot' | 'pipedrive' | 'sheets'>; lastResult?: SubmissionResult<string[]> | null | undefined; disabled: boolean }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'oauth' })
  const [form, fields] = useForm<z.input<typeof CrmOAuthStartSchema>>({
    id: 'crm-oauth',
    lastResult,
    defaultValue: { provider: providers[0] },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CrmOAuthStartSchema }),
  })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: CRM_LABEL_MAX }))
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <ConnectFormHeader title={t('integrations.oauthTitle')} hint={t('integrations.oauthHint')} errors={form.errors} errorId={form.errorId} intent="oauth" />
      <ProviderLabelFields provider={fields.provider} label={fields.label} providers={providers} />
      {providers.includes('sheets') ? (
        <Field
          label={t('integrations.spreadsheetLabel')}
          hint={t('integrations.spreadsheetOAuthHint')}
          errors={translate(fields.spreadsheet.errors)}
          inputProps={{ ...getInputProps(fields.spreadsheet, { type: 'text' }), inputMode: 'url', autoComplete: 'off', placeholder: 'https://docs.google.com/spreadsheets/d/…' }}
        />
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" pending={pending} disabled={disabled}>
          {t('integrations.oauthContinue')}
        </Button>
      </div>
    </Form>
  )
}
