import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useNavigate, useNavigation } from 'react-router'
import type { Route } from './+types/reset-password'
import { clientIp } from '#app/.server/internal-headers.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { getOptionalUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { isCommonPassword, refusedAsCommon } from '#app/.server/password-strength.ts'
import { getSupabase } from '#app/.server/supabase.ts'
import { AuthBackdrop } from '#app/components/auth-backdrop.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { PasswordField } from '#app/components/ui/field.tsx'
import { Modal } from '#app/components/ui/modal.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { NewPasswordSchema } from '#app/domain/auth.ts'
import { useIsPending } from '#app/utils/misc.ts'

export const REDIRECT_AFTER_RESET_MS = 3000
const LOGIN_AFTER_RESET = '/login?reset=success'

type LinkState = 'valid' | 'invalid' | 'verify-error'

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const tokenHash = url.searchParams.get('token_hash') ?? url.searchParams.get('token')
  const type = url.searchParams.get('type')
  const required = url.searchParams.get('required') === 'true'

  if (tokenHash && type === 'recovery') {
    await enforceLimit(context, 'verifyIp', clientIp(request))
    // The recovery one-time token becomes a session (cookies on this redirect), then the
    // token leaves the URL so a reload or a shared screenshot cannot replay it.
    const { error } = await getSupabase(context).auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    if (error) return data({ state: 'verify-error' as LinkState, required }, { status: 400 })
    throw redirect(required ? '/reset-password?required=true' : '/reset-password')
  }
  const user = await getOptionalUser(context)
  const state: LinkState = required || user ? 'valid' : 'invalid'
  return data({ state, required }, { status: state === 'invalid' ? 400 : 200 })
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: NewPasswordSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), success: false }, { status: 400 })
  }
  const commonPassword = () =>
    data({ result: submission.reply({ fieldErrors: { password: ['resetPassword.errors.common'] }, hideFields: ['password', 'confirmPassword'] }), success: false }, { status: 400 })
  // On the server: the dictionary behind the check would weigh on every page load.
  if (isCommonPassword(submission.value.password)) return commonPassword()
  const t = getInstance(context).t
  const supabase = getSupabase(context)
  const user = await getOptionalUser(context)
  if (!user) {
    return data({ result: submission.reply({ formErrors: [t('resetPassword.invalidLink')], hideFields: ['password', 'confirmPassword'] }), success: false }, { status: 401 })
  }
  const { error } = await supabase.auth.updateUser({ password: submission.value.password })
  if (refusedAsCommon(error)) return commonPassword()
  if (error) {
    return data(
      { result: submission.reply({ formErrors: [error.message || t('resetPassword.updateError')], hideFields: ['password', 'confirmPassword'] }), success: false },
      { status: 400 },
    )
  }
  // The user signs in again with the new password (SPEC §4: success, then /login with a message).
  await supabase.auth.signOut({ scope: 'local' }).catch(() => {})
  return { result: submission.reply({ resetForm: true }), success: true }
}

export default function ResetPasswordRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  // Not after our own form post: its revalidation would flash "Checking your link..." before the success screen.
  const checking = navigation.state === 'loading' && navigation.location.pathname === '/reset-password' && !navigation.formMethod
  return (
    <AuthBackdrop>
      <title>{`${t('pages.resetPassword')} · LeadAtlas`}</title>
      {checking ? (
        <Modal variant="page" title={t('resetPassword.title')}>
          <div role="status" className="flex items-center gap-3 text-sm text-slate-600">
            <Spinner className="size-5 text-brand-600" />
            {t('resetPassword.checking')}
          </div>
        </Modal>
      ) : actionData?.success ? (
        <ResetSuccess />
      ) : loaderData.state === 'valid' ? (
        <NewPasswordForm required={loaderData.required} />
      ) : (
        <InvalidLink message={loaderData.state === 'verify-error' ? t('resetPassword.verifyError') : t('resetPassword.invalidLink')} />
      )}
    </AuthBackdrop>
  )
}

function NewPasswordForm({ required }: { required: boolean }) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending()
  const [form, fields] = useForm({
    id: 'new-password-form',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Modal variant="page" title={required ? t('resetPassword.requiredTitle') : t('resetPassword.title')} description={required ? t('resetPassword.requiredBody') : t('resetPassword.subtitle')}>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? (
          <Alert tone="error" id={form.errorId}>
            {form.errors.join(' ')}
          </Alert>
        ) : null}
        <PasswordField
          label={t('resetPassword.newPassword')}
          errors={fields.password.errors?.map((error) => t(error))}
          inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', autoFocus: true }}
        />
        <PasswordField
          label={t('resetPassword.confirmPassword')}
          errors={fields.confirmPassword.errors?.map((error) => t(error))}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
        />
        <Button type="submit" pending={pending} className="w-full">
          {pending ? t('resetPassword.submitting') : t('resetPassword.submit')}
        </Button>
      </Form>
    </Modal>
  )
}

const noopSubscribe = () => () => {}

function ResetSuccess() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // True from the first render of a client-side mount (useHydrated() starts false on every mount,
  // which would insert the meta refresh for one render and the browser would still follow it).
  const hydrated = useSyncExternalStore(noopSubscribe, () => true, () => false)
  useEffect(() => {
    const timer = setTimeout(() => navigate(LOGIN_AFTER_RESET, { replace: true }), REDIRECT_AFTER_RESET_MS)
    return () => clearTimeout(timer)
  }, [navigate])
  return (
    <Modal variant="page" title={t('resetPassword.successTitle')}>
      {/* Without JavaScript the browser follows this after the same 3 seconds. Only then: once
          hydrated the timer above navigates, and a meta refresh would reload the page on top of it. */}
      {hydrated ? null : <meta httpEquiv="refresh" content={`${REDIRECT_AFTER_RESET_MS / 1000};url=${LOGIN_AFTER_RESET}`} />}
      <div className="space-y-4">
        <Alert tone="success">{t('resetPassword.success')}</Alert>
        <p className="text-sm text-slate-600">{t('resetPassword.redirecting')}</p>
        <Link to={LOGIN_AFTER_RESET} replace className={buttonClasses({ className: 'w-full' })}>
          {t('resetPassword.goToLogin')}
        </Link>
      </div>
    </Modal>
  )
}

function InvalidLink({ message }: { message: string }) {
  const { t } = useTranslation()
  return (
    <Modal variant="page" title={t('resetPassword.invalidTitle')}>
      <div className="space-y-4">
        <Alert tone="error">{message}</Alert>
        <Link to="/login?mode=forgot" className={buttonClasses({ className: 'w-full' })}>
          {t('resetPassword.requestNewLink')}
        </Link>
      </div>
    </Modal>
  )
}
