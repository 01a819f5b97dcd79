import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings.api'
import type { AppHandle } from './app-layout.tsx'
import { createApiKey, listApiKeys, MAX_ACTIVE_KEYS, revokeApiKey } from '#app/.server/api-v1/keys.ts'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { ApiKeyList } from '#app/components/api-settings/api-key-list.tsx'
import { NewKeyNotice } from '#app/components/api-settings/new-key-notice.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { ApiKeyCommandSchema } from '#app/domain/api-key-commands.ts'
import { API_KEY_NAME_MAX } from '#app/domain/api-keys.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { pageTexts } from '#app/i18n.ts'
import { can } from '#app/domain/workspace-roles.ts'

// Its texts come with the page, not with every signed-in page's first load.
await pageTexts('apiSettings')

export const handle: AppHandle = { titleKey: 'pages.apiSettings' }

const API_SETTINGS_PATH = '/settings/api'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const revoked = new URL(request.url).searchParams.has('revoked')
  return { keys: await listApiKeys(user), revoked, canCreate: can(user.workspace.role, 'ownKeys') }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: ApiKeyCommandSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), created: null }, { status: 400 })
  if (submission.value.intent === 'revoke-key') {
    await revokeApiKey(user, submission.value.id)
    // Revoking twice, or someone else's key, changes nothing: the list shows the truth either way.
    throw redirect(`${API_SETTINGS_PATH}?revoked=1`)
  }
  await enforceLimit(context, 'apiKeyCreate', user.id)
  const created = await createApiKey(user, submission.value.name)
  if (!created) return data({ result: submission.reply({ formErrors: [t('apiSettings.errors.tooMany', { max: MAX_ACTIVE_KEYS })] }), created: null }, { status: 409 })
  // Not a redirect: the key is shown in this answer only, and never stored where a reload could show it again.
  return data({ result: submission.reply({ resetForm: true }), created: { name: submission.value.name, key: created.key } }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function ApiSettingsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ intent: 'create-key' })
  const validation = useLazyValidation('api-key-form', () => import('#app/domain/api-key-commands.ts').then((module) => module.CreateApiKeySchema), {
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const [form, fields] = useForm({ id: 'api-key-form', lastResult: actionData?.result, ...validation })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: API_KEY_NAME_MAX }))
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/settings">{t('common.backToSettings')}</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('apiSettings.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('apiSettings.subtitle')}</p>
        </div>
        <Link to="/developers" reloadDocument className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          {t('apiSettings.reference')}
        </Link>
      </div>
      {loaderData.revoked && !actionData ? <Alert tone="success">{t('apiSettings.revokedNotice')}</Alert> : null}
      {actionData?.created ? <NewKeyNotice name={actionData.created.name} apiKey={actionData.created.key} /> : null}
      <div className="space-y-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('apiSettings.keysTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('apiSettings.keysHint')}</p>
        </div>
        {loaderData.canCreate ? <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="create-key" />
          {form.errors?.length ? (
            <Alert tone="error" id={form.errorId} className="sm:hidden">
              {form.errors.join(' ')}
            </Alert>
          ) : null}
          <Field
            className="flex-1"
            label={t('apiSettings.nameLabel')}
            hint={t('apiSettings.nameHint')}
            errors={[...(translate(fields.name.errors) ?? []), ...(form.errors ?? [])]}
            inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: API_KEY_NAME_MAX, autoComplete: 'off' }}
          />
          <Button type="submit" pending={pending} className="sm:mt-6">
            {t('apiSettings.create')}
          </Button>
        </Form> : <p className="text-sm text-slate-600">{t('apiSettings.readOnly')}</p>}
        <ApiKeyList keys={loaderData.keys} />
      </div>
      <div className="flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('apiSettings.webhooksTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('apiSettings.webhooksHint')}</p>
        </div>
        <Link to="/settings/api/webhooks" className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          {t('apiSettings.manageWebhooks')}
        </Link>
      </div>
    </section>
  )
}
