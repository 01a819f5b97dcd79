import { useTranslation } from 'react-i18next'
import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/logout'
import { getOptionalUser } from '#app/.server/auth.ts'
import { getSupabase } from '#app/.server/supabase.ts'
import { AuthBackdrop } from '#app/components/auth-backdrop.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Modal } from '#app/components/ui/modal.tsx'
import { useIsPending } from '#app/utils/misc.ts'

/**
 * Signing out changes state, so it is a POST (checked by the Origin middleware like every form):
 * a link or an image on another site sending a GET here must not end the session. A GET only
 * asks; a visitor without a session has nothing to end and goes to sign-in.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context)
  if (!user) throw redirect('/login')
  return { email: user.email }
}

export async function action({ context }: Route.ActionArgs) {
  // Ends this device's session; the cleared cookies ride on this redirect.
  await getSupabase(context).auth.signOut({ scope: 'local' }).catch(() => {})
  throw redirect('/login')
}

export default function LogoutRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const pending = useIsPending()
  return (
    <AuthBackdrop>
      <title>{`${t('pages.logout')} · LeadAtlas`}</title>
      <Modal variant="page" title={t('logout.title')} description={t('logout.confirm', { email: loaderData.email })}>
        <Form method="post" className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to="/" className={buttonClasses({ variant: 'secondary' })}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" pending={pending} autoFocus>
            {pending ? t('logout.signingOut') : t('nav.signOut')}
          </Button>
        </Form>
      </Modal>
    </AuthBackdrop>
  )
}
