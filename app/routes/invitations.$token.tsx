import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData } from 'react-router'
import type { Route } from './+types/invitations.$token'
import { getOptionalUser, requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { acceptInvitation, previewInvitation } from '#app/.server/workspaces/invitations.ts'
import { TEAM_FAILURE_STATUS } from '#app/.server/workspaces/team-commands.ts'
import { workspaceCookie } from '#app/.server/workspaces/current.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { pageTexts } from '#app/i18n.ts'

await pageTexts('team')

export function meta() {
  return [{ name: 'robots', content: 'noindex' }]
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const [preview, user] = await Promise.all([previewInvitation(params.token), getOptionalUser(context)])
  if (!preview) throw data({ error: 'invitation_invalid' }, { status: 404 })
  return { preview, signedInAs: user?.email ?? null, path: `/invitations/${params.token}` }
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const result = await acceptInvitation(user, params.token)
  if (!result.ok) return data({ error: t(`team.errors.${result.code}`, { email: result.email ?? '' }) }, { status: TEAM_FAILURE_STATUS[result.code] })
  // The new team becomes the one the user acts in.
  throw redirect('/settings/team?done=joined', { headers: { 'Set-Cookie': await workspaceCookie.serialize(result.workspaceId) } })
}

export default function InvitationRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const { preview, signedInAs, path } = loaderData
  const next = encodeURIComponent(path)
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-10">
      <title>{`${t('team.invitation.title', { workspace: preview.workspaceName })} · LeadAtlas`}</title>
      <div className="w-full max-w-md space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <p className="text-lg font-bold text-brand-600">LeadAtlas</p>
        <h1 className="text-xl font-semibold text-slate-900">{t('team.invitation.title', { workspace: preview.workspaceName })}</h1>
        <p className="text-sm text-slate-600">
          {t('team.invitation.body', { inviter: preview.inviterName ?? t('team.invitation.someone'), role: t(`team.roles.${preview.role}`), email: preview.email })}
        </p>
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
        {preview.state === 'expired' ? <Alert tone="warning">{t('team.errors.invitation_expired')}</Alert> : null}
        {preview.state === 'used' ? <Alert tone="info">{t('team.invitation.used')}</Alert> : null}
        {preview.state !== 'pending' ? null : signedInAs ? (
          <Form method="post" className="space-y-3">
            <p className="text-sm text-slate-600">{t('team.invitation.signedInAs', { email: signedInAs })}</p>
            <Button type="submit" className="w-full">
              {t('team.invitation.accept')}
            </Button>
          </Form>
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to={`/login?mode=signup&redirectTo=${next}`} className={buttonClasses({ className: 'flex-1' })}>
              {t('team.invitation.signUp')}
            </Link>
            <Link to={`/login?redirectTo=${next}`} className={buttonClasses({ variant: 'secondary', className: 'flex-1' })}>
              {t('team.invitation.signIn')}
            </Link>
          </div>
        )}
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  const { t } = useTranslation()
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-md space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <p className="text-lg font-bold text-brand-600">LeadAtlas</p>
        <h1 className="text-xl font-semibold text-slate-900">{t('team.invitation.invalidTitle')}</h1>
        <p className="text-sm text-slate-600">{t('team.errors.invitation_invalid')}</p>
        <Link to="/" className={buttonClasses({ variant: 'secondary' })}>
          {t('team.invitation.home')}
        </Link>
      </div>
    </main>
  )
}
