import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { authErrorKey, SignUpSchema } from '#app/domain/auth.ts'
import { clientNetwork } from '#app/domain/network.ts'
import { env } from './env.server.ts'
import { getInstance, getLocale } from './i18n.ts'
import { clientIp } from './internal-headers.ts'
import { isCommonPassword, refusedAsCommon } from './password-strength.ts'
import { consumeLimit, refused, refusedForm, type Refusal } from './rate-limit.ts'
import { getSupabase } from './supabase.ts'

const intent = 'signup'

/**
 * Each account gets free credits, so sign-ups are counted per client address (an office behind
 * one address fits), per network a day (rotating addresses does not farm credits) and across the
 * deployment (a wave from many networks). In that order, stopping at the first refusal: a client
 * over its own limit does not use up the shared ones.
 */
async function consumeSignupLimits(ip: string): Promise<Refusal | undefined> {
  const limits = [
    ['signupIp', ip],
    ['signupNetwork', clientNetwork(ip)],
    ['signupGlobal', 'deployment'],
  ] as const
  for (const [name, key] of limits) {
    const refusal = refused(await consumeLimit(name, key))
    if (refusal) return refusal
  }
  return undefined
}

/** Step 1 of sign-up (the login route's `signup` intent): creates the account, or says why not. */
export async function signUpAction({ request, context, formData }: { request: Request; context: Readonly<RouterContextProvider>; formData: FormData }) {
  const submission = parseWithZod(formData, { schema: SignUpSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  const commonPassword = () => data({ intent, result: submission.reply({ fieldErrors: { password: ['auth.errors.passwordCommon'] }, hideFields: ['password'] }) }, { status: 400 })
  // Here and not in the browser: the dictionary behind it would weigh on every page load.
  if (isCommonPassword(submission.value.password)) return commonPassword()

  const ip = clientIp(request)
  const refusal = await consumeSignupLimits(ip)
  if (refusal) return refusedForm({ request, context, client: ip }, intent, submission, refusal)

  const { data: signUp, error } = await getSupabase(context).auth.signUp({
    email: submission.value.email,
    password: submission.value.password,
    // The locale lets the auth server write to the owner in their language later.
    options: { emailRedirectTo: `${env.APP_URL || new URL(request.url).origin}/login`, data: { locale: getLocale(context) } },
  })
  if (refusedAsCommon(error)) return commonPassword()
  if (error || !signUp.user) {
    const t = getInstance(context).t
    return data(
      { intent, result: submission.reply({ formErrors: [t(authErrorKey(error?.code, error?.status))], hideFields: ['password'] }) },
      { status: error?.status === 429 ? 429 : (error?.status ?? 0) >= 500 || error?.status === 0 ? 503 : 400 },
    )
  }
  // No session: the address already has an account (its owner is told by email), or a hosted
  // project requires confirmation. Either way the same neutral "check your email".
  if (!signUp.session) return data({ intent, result: submission.reply({ resetForm: true }), confirmEmail: submission.value.email })
  // Where the visitor was going (an invitation's link) survives the profile step.
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'))
  throw redirect(`/login?mode=signup&step=profile${redirectTo !== '/' ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ''}`)
}
