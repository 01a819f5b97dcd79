import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import type { InvitationView } from '#app/domain/team.ts'

/** Pending invitations (each holds a seat until accepted, revoked or expired), with resend and revoke. */
export function InvitationList({ invitations }: { invitations: InvitationView[] }) {
  const { t, i18n } = useTranslation()
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' })
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 className="px-6 pt-6 text-lg font-semibold text-slate-900 sm:px-8">{t('team.invitationsTitle')}</h2>
      <ul className="divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-col gap-3 px-6 py-4 sm:flex-row sm:items-center sm:px-8" data-testid="team-invitation">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">{invitation.email}</p>
              <p className="text-sm text-slate-600">
                {t(`team.roles.${invitation.role}`)} ·{' '}
                {invitation.expired ? t('team.invitationExpired') : t('team.invitationExpires', { date: date.format(new Date(invitation.expiresAt)) })}
              </p>
            </div>
            <div className="flex gap-2">
              <Form method="post">
                <input type="hidden" name="intent" value="resend" />
                <input type="hidden" name="invitationId" value={invitation.id} />
                <Button type="submit" variant="secondary" size="sm" aria-label={t('team.resendTo', { email: invitation.email })}>
                  {t('team.resend')}
                </Button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="invitationId" value={invitation.id} />
                <Button type="submit" variant="ghost" size="sm" className="text-red-700 hover:bg-red-50 hover:text-red-800" aria-label={t('team.revokeFor', { email: invitation.email })}>
                  {t('team.revoke')}
                </Button>
              </Form>
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
