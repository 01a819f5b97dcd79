import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/login'
import { retryAfterHeaders } from '#app/utils/headers.ts'
import { getOptionalUser } from '#app/.server/auth.ts'
import { clientIp } from '#app/.server/internal-headers.ts'
import { consumeLimit, refused, refusedForm } from '#app/.server/rate-limit.ts'
import { signIn } from '#app/.server/sign-in.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { updateProfile } from '#app/.server/profile.ts'
import { signUpAction } from '#app/.server/sign-up.ts'
import { getSupabase } from '#app/.server/supabase.ts'
import { AuthBackdrop } from '#app/components/auth-backdrop.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, PasswordField } from '#app/components/ui/field.tsx'
import { Modal, ModalCancelLink } from '#app/components/ui/modal.tsx'
import { ForgotPasswordSchema, ProfileSchema, SignInSchema } from '#app/domain/auth.ts'
import { FORGOT_PASSWORD_FIELDS, PROFILE_FIELD_MAX, PROFILE_FIELDS, SIGN_IN_FIELDS } from '#app/domain/auth-fields.ts'
import { validateFields } from '#app/utils/field-checks.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { env } from '#app/.server/env.server.ts'
import type { DocumentHandle } from '#app/utils/document-handle.ts'
import loginPageScript from '#app/islands/login-page.ts?worker&url'

type Mode = 'signin' | 'signup' | 'profile' | 'forgot'

function modeFromUrl(searchParams: URLSearchParams): Mode {
  const mode = searchParams.get('mode')
  if (mode === 'signup') return searchParams.get('step') === 'profile' ? 'profile' : 'signup'
  if (mode === 'forgot') return 'forgot'
  return 'signin'
}

export const headers = retryAfterHeaders

// A new visitor's first page, on any connection: served as HTML without React (≈ 108 KB brotli) and driven by a few KB
// of its own (app/islands/login-page.ts). A client-side navigation to /login still renders it with React.
export const handle: DocumentHandle = { scripts: false, pageScript: loginPageScript }

/**
 * The mode links are plain GET links (they work without JavaScript), but between the visitor
 * modes the loader has nothing new to say: skipping it switches at once, on a slow connection
 * too, while the same form stays on screen with what was typed.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const visitorMode = (url: URL) => url.pathname === '/login' && modeFromUrl(url.searchParams) !== 'profile'
  if (!formMethod && visitorMode(currentUrl) && visitorMode(nextUrl)) return false
  return defaultShouldRevalidate
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const mode = modeFromUrl(url.searchParams)
  const user = await getOptionalUser(context)
  // Step 2 of sign-up needs the account step 1 created; every other mode is for visitors.
  if (mode === 'profile' && !user) throw redirect('/login?mode=signup')
  if (mode !== 'profile' && user) throw redirect(safeRedirectPath(url.searchParams.get('redirectTo')))
  return null
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  const supabase = getSupabase(context)
  const t = getInstance(context).t
  const origin = env.APP_URL || new URL(request.url).origin
  const ip = clientIp(request)
  const refusedHere = { request, context, client: ip }
  switch (intent) {
    case 'signin': {
      const submission = parseWithZod(formData, { schema: SignInSchema })
      if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
      const outcome = await signIn(supabase, { email: submission.value.email, password: submission.value.password, ip })
      if (outcome.ok) throw redirect(safeRedirectPath(submission.value.redirectTo))
      if ('refusal' in outcome) return await refusedForm(refusedHere, intent, submission, outcome.refusal)
      return data(
        { intent, result: submission.reply({ formErrors: [t(outcome.messageKey)], hideFields: ['password'] }) },
        { status: outcome.status, headers: outcome.status === 503 ? { 'Retry-After': '5' } : undefined },
      )
    }
    case 'signup':
      return signUpAction({ request, context, formData })
    case 'profile': {
      const user = await getOptionalUser(context)
      if (!user) throw redirect('/login?mode=signup')
      const submission = parseWithZod(formData, { schema: ProfileSchema })
      if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
      const result = await updateProfile(context, user, submission.value)
      if (!result.ok) return data({ intent, result: submission.reply({ formErrors: [result.message || t('settings.error')] }) }, { status: 400 })
      throw redirect(safeRedirectPath(new URL(request.url).searchParams.get('redirectTo')))
    }
    case 'skip':
      throw redirect(safeRedirectPath(new URL(request.url).searchParams.get('redirectTo')))
    case 'forgot': {
      const submission = parseWithZod(formData, { schema: ForgotPasswordSchema })
      if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
      const overLimit = refused(await consumeLimit('forgotIp', ip), await consumeLimit('forgotEmail', submission.value.email))
      if (overLimit) return await refusedForm(refusedHere, intent, submission, overLimit)
      // `lang`: the local auth server writes the email in the language the person is using (hosted Supabase ignores it).
      const lang = getInstance(context).language === 'fr' ? 'fr' : 'en'
      const { error } = await supabase.auth.resetPasswordForEmail(submission.value.email, { redirectTo: `${origin}/reset-password?lang=${lang}` })
      if (error) {
        const message = error.message || t('auth.errors.resetEmailFailed')
        return data({ intent, result: submission.reply({ formErrors: [message] }) }, { status: error.status === 429 ? 429 : 400 })
      }
      return data({ intent, result: submission.reply(), sentTo: submission.value.email })
    }
    default:
      return data({ intent: null, result: null }, { status: 400 })
  }
}

export default function LoginRoute() {
  const [searchParams] = useSearchParams()
  const mode = modeFromUrl(searchParams)
  const { t } = useTranslation()
  const notice = searchParams.get('reset') === 'success' ? t('resetPassword.success') : searchParams.get('redirectTo') ? t('auth.pleaseSignIn') : null
  // "Forgot your password?" takes the email already typed along.
  const [carriedEmail, setCarriedEmail] = useState('')

  return (
    <AuthBackdrop>
      <title>{`${t('pages.login')} · LeadAtlas`}</title>
      {mode === 'profile' ? (
        <ProfileStep />
      ) : (
        <CredentialsDialog mode={mode === 'signup' ? 'signup' : 'signin'} notice={notice} inert={mode === 'forgot'} onForgot={setCarriedEmail} />
      )}
      {mode === 'forgot' ? <ForgotPasswordDialog defaultEmail={carriedEmail} /> : null}
      {/* Only in the server's HTML: the page then runs its own script, not React (handle above). */}
      {typeof document === 'undefined' ? <PageScriptParts mode={mode} notice={notice} /> : null}
    </AuthBackdrop>
  )
}

/**
 * What app/islands/login-page.ts works from: the other mode, to switch to in place keeping what was typed; a fresh
 * reset dialog, to open in place; the field messages it shows when it checks a form before posting it.
 */
function PageScriptParts({ mode, notice }: { mode: Mode; notice: string | null }) {
  const { t } = useTranslation()
  const loginHref = useLoginHref()
  const keys = ['auth.errors.emailRequired', 'auth.errors.emailInvalid', 'auth.errors.passwordRequired', 'auth.errors.passwordMin']
  const messages = Object.fromEntries([...keys.map((key) => [key, t(key)]), ['settings.tooLong', t('settings.tooLong', { max: PROFILE_FIELD_MAX })]])
  return (
    <>
      {mode !== 'profile' ? (
        <>
          <template data-view-href={loginHref(mode === 'signup' ? {} : { mode: 'signup' })}>
            <CredentialsDialog mode={mode === 'signup' ? 'signin' : 'signup'} notice={notice} inert={false} onForgot={() => {}} template />
          </template>
          <template data-dialog-template={FORGOT_DIALOG_ID}>
            <ForgotPasswordDialog defaultEmail="" template />
          </template>
        </>
      ) : null}
      <script type="application/json" id="island-messages" dangerouslySetInnerHTML={{ __html: JSON.stringify(messages).replaceAll('<', '\\u003c') }} />
    </>
  )
}

function useLoginHref() {
  const [searchParams] = useSearchParams()
  const redirectTo = searchParams.get('redirectTo')
  return (params: Record<string, string>) => {
    const next = new URLSearchParams(params)
    if (redirectTo) next.set('redirectTo', redirectTo)
    return next.size ? `/login?${next}` : '/login'
  }
}

function FormErrors({ errors, id }: { errors?: string[] | null; id?: string }) {
  const { t } = useTranslation()
  if (!errors?.length) return null
  return (
    <Alert tone="error" id={id}>
      {errors.map((error) => t(error, { defaultValue: error })).join(' ') || t('common.error')}
    </Alert>
  )
}

interface CredentialsDialogProps {
  mode: 'signin' | 'signup'
  notice: string | null
  inert: boolean
  onForgot: (email: string) => void
  /** The other mode's fresh copy for app/islands/login-page.ts, whatever the page's own answer. */
  template?: boolean
}

function CredentialsDialog({ mode, notice, inert, onForgot, template = false }: CredentialsDialogProps) {
  const { t } = useTranslation()
  const pageAnswer = useActionData<typeof action>()
  const actionData = template ? undefined : pageAnswer
  const [searchParams] = useSearchParams()
  const loginHref = useLoginHref()
  const intent = mode
  const [form, fields] = useForm({
    // One form for both modes, so switching keeps its inputs (and what was typed in them).
    id: 'credentials-form',
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    // Sign-in and sign-up check the same two fields (the server parses with SignInSchema / SignUpSchema).
    onValidate: validateFields(SIGN_IN_FIELDS),
    // Not on blur: the email field is autofocused, so leaving it empty to click "Sign up" or
    // "Forgot your password?" would pop an error that shifts the link away from the pointer.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const pending = useIsPending({ intent })
  const confirmEmail = actionData && 'confirmEmail' in actionData && actionData.confirmEmail
  // The form outlives a mode switch: the errors of a sign-in attempt are not the sign-up form's.
  const [errorsFor, setErrorsFor] = useState(mode)
  const formProps = getFormProps(form)
  const shown = errorsFor === mode
  const translate = (errors?: string[]) => (shown ? errors?.map((error) => t(error)) : undefined)

  return (
    <Modal
      variant="page"
      inert={inert}
      dataAttributes={{ 'data-under-dialog': '', 'data-view': '' }}
      title={mode === 'signin' ? t('auth.signInTitle') : t('auth.signUpTitle')}
      description={mode === 'signin' ? t('auth.signInSubtitle') : t('auth.signUpSubtitle')}
    >
      {mode === 'signup' ? <p className="-mt-3 mb-4 text-xs font-medium tracking-wide text-slate-500 uppercase">{t('auth.stepOf', { step: 1 })}</p> : null}
      <Form
        method="post"
        // Explicit: a form switched to in place (app/islands/login-page.ts) posts to its own mode's URL.
        action={loginHref(mode === 'signup' ? { mode: 'signup' } : {})}
        replace
        {...formProps}
        aria-invalid={shown ? formProps['aria-invalid'] : undefined}
        aria-describedby={shown ? formProps['aria-describedby'] : undefined}
        onSubmit={(event) => {
          setErrorsFor(mode)
          formProps.onSubmit(event)
        }}
        data-checks="signIn"
        className="space-y-4"
      >
        <input type="hidden" name="intent" value={intent} />
        {mode === 'signin' ? <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? '/'} /> : null}
        {notice ? <Alert tone={searchParams.get('reset') === 'success' ? 'success' : 'info'}>{notice}</Alert> : null}
        {confirmEmail ? <Alert tone="success">{t('auth.confirmEmail', { email: confirmEmail })}</Alert> : null}
        <FormErrors errors={shown ? form.errors : undefined} id={form.errorId} />
        <Field
          label={t('auth.email')}
          errors={translate(fields.email.errors)}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', placeholder: t('auth.emailPlaceholder'), autoFocus: true }}
        />
        <PasswordField
          label={t('auth.password')}
          errors={translate(fields.password.errors)}
          inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: mode === 'signin' ? 'current-password' : 'new-password' }}
        />
        {mode === 'signin' ? <ForgotPasswordLink href={loginHref({ mode: 'forgot' })} onForgot={onForgot} /> : null}
        <Button type="submit" pending={pending} className="w-full" data-pending-label={mode === 'signin' ? t('auth.signingIn') : t('auth.signingUp')}>
          {mode === 'signin' ? (pending ? t('auth.signingIn') : t('auth.signIn')) : pending ? t('auth.signingUp') : t('auth.signUp')}
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to={loginHref(mode === 'signin' ? { mode: 'signup' } : {})} data-swaps-view className="font-medium text-brand-600 hover:text-brand-700">
          {mode === 'signin' ? t('auth.noAccount') : t('auth.haveAccount')}
        </Link>
      </p>
    </Modal>
  )
}

/** Opens the reset dialog (by URL; in place with app/islands/login-page.ts), taking the email typed along. */
function ForgotPasswordLink({ href, onForgot }: { href: string; onForgot: (email: string) => void }) {
  const { t } = useTranslation()
  return (
    <div className="flex justify-end">
      <Link
        to={href}
        onClick={(event) => onForgot(String(new FormData(event.currentTarget.closest('form') ?? undefined).get('email') ?? ''))}
        data-opens-dialog={FORGOT_DIALOG_ID}
        className="text-sm font-medium text-brand-600 hover:text-brand-700"
      >
        {t('auth.forgotPassword')}
      </Link>
    </div>
  )
}

function ProfileStep() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm({
    id: 'profile-form',
    lastResult: actionData?.intent === 'profile' ? actionData.result : undefined,
    onValidate: validateFields(PROFILE_FIELDS),
    shouldValidate: 'onBlur',
  })
  const saving = useIsPending({ intent: 'profile' })
  const skipping = useIsPending({ intent: 'skip' })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: PROFILE_FIELD_MAX }))
  return (
    <Modal variant="page" title={t('auth.profileTitle')} description={t('auth.profileSubtitle')}>
      <p className="-mt-3 mb-4 text-xs font-medium tracking-wide text-slate-500 uppercase">{t('auth.stepOf', { step: 2 })}</p>
      <Form method="post" replace {...getFormProps(form)} data-checks="profile" data-validate="blur" className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('auth.firstName')} errors={translate(fields.firstName.errors)} inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name', autoFocus: true }} />
          <Field label={t('auth.lastName')} errors={translate(fields.lastName.errors)} inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }} />
        </div>
        <Field label={t('auth.companyName')} errors={translate(fields.companyName.errors)} inputProps={{ ...getInputProps(fields.companyName, { type: 'text' }), autoComplete: 'organization' }} />
        <Field label={t('auth.phone')} errors={translate(fields.phone.errors)} inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }} />
        {/* Save comes first in the markup: it is the form's default button, the one Enter in a
            field submits. The reversed flex keeps Skip on the left (below on narrow screens). */}
        <div className="flex flex-col gap-3 pt-2 sm:flex-row-reverse sm:justify-between">
          <Button type="submit" name="intent" value="profile" pending={saving} data-pending-label={t('common.saving')}>
            {saving ? t('common.saving') : t('auth.saveProfile')}
          </Button>
          <Button type="submit" name="intent" value="skip" variant="ghost" pending={skipping} formNoValidate>
            {t('auth.skip')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}

const FORGOT_DIALOG_ID = 'forgot-dialog'

/** `template`: the fresh dialog app/islands/login-page.ts clones, whatever the page's own answer. */
function ForgotPasswordDialog({ defaultEmail, template = false }: { defaultEmail: string; template?: boolean }) {
  const { t } = useTranslation()
  const pageAnswer = useActionData<typeof action>()
  const actionData = template ? undefined : pageAnswer
  const loginHref = useLoginHref()
  const [form, fields] = useForm({
    id: template ? 'forgot-form-template' : 'forgot-form',
    defaultValue: { email: defaultEmail },
    lastResult: actionData?.intent === 'forgot' ? actionData.result : undefined,
    onValidate: validateFields(FORGOT_PASSWORD_FIELDS),
    shouldValidate: 'onSubmit', // autofocused: a blur error would move Cancel from under the pointer
    shouldRevalidate: 'onInput',
  })
  const pending = useIsPending({ intent: 'forgot' })
  const sentTo = actionData && 'sentTo' in actionData ? actionData.sentTo : null
  // Closing or cancelling returns to sign-in, which drops the sent flag and the error (SPEC §4).
  const closeHref = loginHref({})
  const answered = Boolean(sentTo || form.errors?.length || fields.email.errors?.length)
  return (
    <Modal
      title={sentTo ? t('auth.emailSent') : t('auth.resetTitle')}
      description={sentTo ? undefined : t('auth.resetSubtitle')}
      size="sm"
      closeHref={closeHref}
      dataAttributes={{ id: FORGOT_DIALOG_ID, 'data-island-dialog': '', 'data-close-href': closeHref, 'data-answered': answered ? '' : undefined }}
    >
      {sentTo ? (
        <div className="space-y-6">
          <Alert tone="success">{t('auth.emailSentBody', { email: sentTo })}</Alert>
          <Link to={closeHref} replace data-dialog-close className={buttonClasses({ className: 'w-full' })}>
            {t('common.close')}
          </Link>
        </div>
      ) : (
        <Form method="post" action={loginHref({ mode: 'forgot' })} {...getFormProps(form)} data-checks="forgot" className="space-y-4">
          <input type="hidden" name="intent" value="forgot" />
          <FormErrors errors={form.errors} id={form.errorId} />
          <Field
            label={t('auth.email')}
            errors={fields.email.errors?.map((error) => t(error))}
            inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', autoFocus: !template, placeholder: t('auth.emailPlaceholder') }}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <ModalCancelLink to={closeHref} />
            <Button type="submit" pending={pending} data-pending-label={t('auth.sending')}>
              {pending ? t('auth.sending') : t('auth.sendResetLink')}
            </Button>
          </div>
        </Form>
      )}
    </Modal>
  )
}
