import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { readNotificationPreferences } from '#app/.server/notifications/store.ts'
import { readProfile, updateProfile } from '#app/.server/profile.ts'
import { NotificationPreferencesForm } from '#app/components/notifications/preferences-form.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { LinkCard } from '#app/components/ui/link-card.tsx'
import { DNC_PATH } from '#app/domain/do-not-contact.ts'
import { Field } from '#app/components/ui/field.tsx'
import { ProfileSchema } from '#app/domain/auth.ts'
import { PROFILE_FIELD_MAX } from '#app/domain/auth-fields.ts'
import { useIsPending } from '#app/utils/misc.ts'

export const handle: AppHandle = { titleKey: 'pages.settings' }

// Post/redirect/get (ARCHITECTURE §6): a successful save redirects, and this one-shot cookie
// carries the success message across the redirect, so reloading never re-posts the form.
const SAVED_COOKIE = 'settings_saved'
const savedCookie = (value: string, maxAge: number) => `${SAVED_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax`

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const saved = new RegExp(`(?:^|;\\s*)${SAVED_COOKIE}=1(?:;|$)`).test(request.headers.get('Cookie') ?? '')
  const [profile, notifications] = await Promise.all([readProfile(user), readNotificationPreferences(user)])
  const notificationsSaved = new URL(request.url).searchParams.get('notifications') === 'saved'
  const body = { email: user.email, profile, saved, notifications, notificationsSaved }
  return data(body, saved ? { headers: { 'Set-Cookie': savedCookie('', 0) } } : undefined)
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: ProfileSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), saved: false }, { status: 400 })
  const t = getInstance(context).t
  try {
    const result = await updateProfile(context, user, submission.value)
    if (!result.ok) return data({ result: submission.reply({ formErrors: [result.message || t('settings.error')] }), saved: false }, { status: 400 })
  } catch (error) {
    console.error('Profile update failed', error)
    return data({ result: submission.reply({ formErrors: [t('settings.error')] }), saved: false }, { status: 500 })
  }
  throw redirect('/settings', { headers: { 'Set-Cookie': savedCookie('1', 60) } })
}

export default function SettingsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending()
  const [form, fields] = useForm({
    id: 'settings-form',
    lastResult: actionData?.result,
    defaultValue: loaderData.profile,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: PROFILE_FIELD_MAX }))
  return (
    <section className="mx-auto max-w-3xl">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('settings.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('settings.subtitle')}</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-8 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="space-y-6 p-6 sm:p-8">
          {loaderData.saved && !actionData && !pending ? <Alert tone="success">{t('settings.success')}</Alert> : null}
          {form.errors?.length ? (
            <Alert tone="error" id={form.errorId}>
              {form.errors.join(' ')}
            </Alert>
          ) : null}
          <div className="grid gap-6 sm:grid-cols-2">
            <Field label={t('auth.firstName')} errors={translate(fields.firstName.errors)} inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name' }} />
            <Field label={t('auth.lastName')} errors={translate(fields.lastName.errors)} inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }} />
          </div>
          <Field label={t('auth.companyName')} errors={translate(fields.companyName.errors)} inputProps={{ ...getInputProps(fields.companyName, { type: 'text' }), autoComplete: 'organization' }} />
          <Field label={t('auth.phone')} errors={translate(fields.phone.errors)} inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }} />
          <Field
            label={t('settings.email')}
            hint={t('settings.emailNote')}
            inputProps={{ id: 'settings-email', type: 'email', value: loaderData.email, readOnly: true, disabled: true }}
          />
        </div>
        <div className="flex justify-end rounded-b-2xl border-t border-slate-100 bg-slate-50 px-6 py-4 sm:px-8">
          <Button type="submit" pending={pending}>
            {pending ? t('common.saving') : t('settings.save')}
          </Button>
        </div>
      </Form>
      <NotificationPreferencesForm preferences={loaderData.notifications} saved={loaderData.notificationsSaved} />
      <LinkCard to={DNC_PATH} title={t('settings.doNotContactLink')} hint={t('settings.doNotContactHint')} />
      <LinkCard to="/settings/team" title={t('settings.teamLink')} hint={t('settings.teamHint')} />
      <LinkCard to="/settings/integrations" title={t('settings.integrationsLink')} hint={t('settings.integrationsHint')} />
      <LinkCard to="/settings/api" title={t('settings.apiLink')} hint={t('settings.apiHint')} />
      <LinkCard to="/developers" reloadDocument title={t('settings.developersLink')} hint={t('settings.developersHint')} />
    </section>
  )
}
