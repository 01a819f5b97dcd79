import { pageTexts } from '#app/i18n.ts'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, useActionData } from 'react-router'
import type { Route } from './+types/settings.api.webhooks'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { createWebhookEndpoint, listWebhookEndpoints } from '#app/.server/webhooks/endpoints.ts'
import { checkWebhookUrl, webhookNetwork } from '#app/.server/webhooks/guard.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { EndpointList } from '#app/components/webhooks/endpoint-list.tsx'
import { EventCheckboxes, typedEvents } from '#app/components/webhooks/event-checkboxes.tsx'
import { SecretNotice } from '#app/components/webhooks/secret-notice.tsx'
import { CreateWebhookEndpointSchema } from '#app/domain/webhook-commands.ts'
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_URL_MAX } from '#app/domain/webhooks.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

// This page's texts come with it, not with every page's messages (app/i18n.ts).
await pageTexts('webhooks')

export const handle: AppHandle = { titleKey: 'pages.webhooks' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const deleted = new URL(request.url).searchParams.has('deleted')
  return { endpoints: await listWebhookEndpoints(user, { limit: MAX_WEBHOOK_ENDPOINTS }), deleted }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: CreateWebhookEndpointSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), created: null }, { status: 400 })
  const refusal = await checkWebhookUrl(submission.value.url, webhookNetwork())
  if (refusal) return data({ result: submission.reply({ fieldErrors: { url: [`webhooks.errors.url_${refusal}`] } }), created: null }, { status: 400 })
  const result = await createWebhookEndpoint(user, submission.value)
  if (!result.ok && result.reason === 'exists') return data({ result: submission.reply({ fieldErrors: { url: ['webhooks.errors.urlExists'] } }), created: null }, { status: 409 })
  if (!result.ok) return data({ result: submission.reply({ formErrors: [t('webhooks.errors.tooMany', { max: MAX_WEBHOOK_ENDPOINTS })] }), created: null }, { status: 409 })
  // Not a redirect: the secret is shown in this answer only, and never stored where a reload could show it again.
  return data({ result: submission.reply({ resetForm: true }), created: { url: result.endpoint.url, secret: result.secret } }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function WebhooksSettingsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ intent: 'create-endpoint' })
  const validation = useLazyValidation('webhook-form', () => import('#app/domain/webhook-commands.ts').then((module) => module.CreateWebhookEndpointSchema), {
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const [form, fields] = useForm({ id: 'webhook-form', lastResult: actionData?.result, ...validation })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: WEBHOOK_URL_MAX }))
  // A refused form shows what was ticked, even nothing; a new form starts with export.completed.
  const checked = actionData && !actionData.created ? typedEvents(fields.events.value) : ['export.completed']
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/settings/api">{t('webhooks.backToApi')}</BackLink>
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('webhooks.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('webhooks.subtitle')}</p>
      </div>
      {loaderData.deleted && !actionData ? <Alert tone="success">{t('webhooks.deletedNotice')}</Alert> : null}
      {actionData?.created ? <SecretNotice title={t('webhooks.createdTitle', { url: actionData.created.url })} secret={actionData.created.secret} /> : null}
      <div className="space-y-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h2 className="text-lg font-semibold text-slate-900">{t('webhooks.listTitle')}</h2>
        <EndpointList endpoints={loaderData.endpoints} />
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <input type="hidden" name="intent" value="create-endpoint" />
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('webhooks.createTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('webhooks.createHint', { max: MAX_WEBHOOK_ENDPOINTS })}</p>
        </div>
        {form.errors?.length ? (
          <Alert tone="error" id={form.errorId}>
            {form.errors.join(' ')}
          </Alert>
        ) : null}
        <Field
          label={t('webhooks.urlLabel')}
          hint={t('webhooks.urlHint')}
          errors={translate(fields.url.errors)}
          inputProps={{ ...getInputProps(fields.url, { type: 'url' }), maxLength: WEBHOOK_URL_MAX, autoComplete: 'off', placeholder: 'https://' }}
        />
        <EventCheckboxes key={form.key} checked={checked} errors={translate(fields.events.errors)} errorId={fields.events.errorId} />
        <div className="flex justify-end">
          <Button type="submit" pending={pending}>
            {t('webhooks.create')}
          </Button>
        </div>
      </Form>
    </section>
  )
}
