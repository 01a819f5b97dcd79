import { pageTexts } from '#app/i18n.ts'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings.api.webhooks.$id'
import type { AppHandle } from './app-layout.tsx'
import { requireUser, type SessionUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { listWebhookDeliveries, redeliver, sendTestEvent } from '#app/.server/webhooks/deliveries.ts'
import { deleteWebhookEndpoint, getWebhookEndpoint, rotateWebhookSecret, setWebhookEnabled, updateWebhookEvents } from '#app/.server/webhooks/endpoints.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { DeliveryLog } from '#app/components/webhooks/delivery-log.tsx'
import { EndpointState } from '#app/components/webhooks/endpoint-state.tsx'
import { EventCheckboxes, typedEvents } from '#app/components/webhooks/event-checkboxes.tsx'
import { SecretNotice } from '#app/components/webhooks/secret-notice.tsx'
import { WebhookEndpointCommandSchema } from '#app/domain/webhook-commands.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

// This page's texts come with it, not with every page's messages (app/i18n.ts).
await pageTexts('webhooks')

export const handle: AppHandle = { titleKey: 'pages.webhookEndpoint' }

const NOTICES = ['saved', 'enabled', 'disabled', 'tested', 'redelivered', 'busy'] as const
type Notice = (typeof NOTICES)[number]

async function requireEndpoint(user: SessionUser, id: string, t: (key: string) => string) {
  const endpoint = await getWebhookEndpoint(user, id)
  if (!endpoint) throw data({ message: t('webhooks.errors.notFound') }, { status: 404 })
  return endpoint
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const endpoint = await requireEndpoint(user, params.id, getInstance(context).t)
  const notice = NOTICES.find((name) => name === new URL(request.url).searchParams.get('notice')) ?? null
  return { endpoint, deliveries: await listWebhookDeliveries(user, endpoint.id), notice }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const endpoint = await requireEndpoint(user, params.id, getInstance(context).t)
  const submission = parseWithZod(await request.formData(), { schema: WebhookEndpointCommandSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), rotated: null }, { status: 400 })
  const command = submission.value
  const back = (notice: Notice) => redirect(`/settings/api/webhooks/${endpoint.id}?notice=${notice}`)
  switch (command.intent) {
    case 'update-events':
      await updateWebhookEvents(user, endpoint.id, command.events)
      throw back('saved')
    case 'set-enabled':
      await setWebhookEnabled(user, endpoint.id, command.enabled)
      throw back(command.enabled ? 'enabled' : 'disabled')
    case 'rotate-secret': {
      // No overlap here: the page says the current secret stops at once (the API offers one).
      const rotated = await rotateWebhookSecret(user, endpoint.id, { overlapSeconds: 0 })
      // Not a redirect: the new secret is shown in this answer only.
      return data({ result: submission.reply(), rotated: rotated?.secret ?? null }, { headers: { 'Cache-Control': 'no-store' } })
    }
    case 'send-test':
      await enforceLimit(context, 'webhookSend', user.id)
      await sendTestEvent(user, endpoint.id)
      throw back('tested')
    case 'redeliver':
      await enforceLimit(context, 'webhookSend', user.id)
      throw back((await redeliver(user, command.deliveryId)) ? 'redelivered' : 'busy')
    case 'delete-endpoint':
      await deleteWebhookEndpoint(user, endpoint.id)
      throw redirect('/settings/api/webhooks?deleted=1')
  }
}

export default function WebhookEndpointRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const { endpoint, deliveries, notice } = loaderData
  const savePending = useIsPending({ intent: 'update-events' })
  const [form, fields] = useForm<{ intent: string; events: string[] }>({ id: 'webhook-events-form', lastResult: actionData?.result, shouldValidate: 'onSubmit' })
  // A refused events form shows what was ticked, even nothing; otherwise the endpoint's events.
  const refusedEvents = actionData?.result.status === 'error' && actionData.result.initialValue?.intent === 'update-events'
  const checked = refusedEvents ? typedEvents(fields.events.value) : endpoint.events
  const panel = 'space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8'
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/settings/api/webhooks">{t('webhooks.backToList')}</BackLink>
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">{t('webhooks.endpointTitle')}</h1>
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm break-all text-slate-700">{endpoint.url}</span>
          <EndpointState endpoint={endpoint} />
        </p>
      </div>
      {notice && !actionData ? <Alert tone={notice === 'busy' ? 'info' : 'success'}>{t(`webhooks.notices.${notice}`)}</Alert> : null}
      {actionData?.rotated ? <SecretNotice title={t('webhooks.rotatedTitle')} secret={actionData.rotated} /> : null}

      <Form method="post" {...getFormProps(form)} className={panel}>
        <input type="hidden" name="intent" value="update-events" />
        <EventCheckboxes key={form.key} checked={checked} errors={fields.events.errors?.map((error) => t(error))} errorId={fields.events.errorId} />
        <div className="flex justify-end">
          <Button type="submit" pending={savePending}>
            {t('webhooks.saveEvents')}
          </Button>
        </div>
      </Form>

      <div className={panel}>
        <h2 className="text-lg font-semibold text-slate-900">{t('webhooks.actionsTitle')}</h2>
        <div className="flex flex-wrap gap-3">
          <Form method="post">
            <input type="hidden" name="intent" value="send-test" />
            <Button type="submit" variant="secondary">
              {t('webhooks.sendTest')}
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="set-enabled" />
            <input type="hidden" name="enabled" value={endpoint.enabled ? 'false' : 'true'} />
            <Button type="submit" variant="secondary">
              {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="rotate-secret" />
            <Button type="submit" variant="secondary" aria-describedby="rotate-hint">
              {t('webhooks.rotate')}
            </Button>
          </Form>
        </div>
        <p id="rotate-hint" className="text-sm text-slate-600">
          {t('webhooks.rotateHint')}
        </p>
        <details className="rounded-xl ring-1 ring-red-200">
          <summary className="cursor-pointer rounded-xl px-4 py-3 text-sm font-medium text-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">{t('webhooks.deleteSummary')}</summary>
          <Form method="post" className="space-y-3 px-4 pb-4">
            <input type="hidden" name="intent" value="delete-endpoint" />
            <p className="text-sm text-slate-700">{t('webhooks.deleteConfirm')}</p>
            <Button type="submit" variant="danger">
              {t('webhooks.delete')}
            </Button>
          </Form>
        </details>
      </div>

      <div className={panel}>
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('webhooks.log.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('webhooks.log.hint')}</p>
        </div>
        <DeliveryLog deliveries={deliveries} />
      </div>
    </section>
  )
}
