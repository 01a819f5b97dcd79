import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { MAX_MONTHLY_CAP, type TeamMemberView } from '#app/domain/team.ts'
import { ASSIGNABLE_ROLES, can, canManageMember, type WorkspaceRole } from '#app/domain/workspace-roles.ts'

const SELECT = 'block w-full rounded-lg border-0 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none'
const INPUT = 'block w-28 rounded-lg border-0 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none'

/** The team's members: each row's role, monthly cap and this month's spending, with the changes the viewer may make. */
export function MemberList({ members, me }: { members: TeamMemberView[]; me: { id: string; role: WorkspaceRole } }) {
  const { t, i18n } = useTranslation()
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <ul className="divide-y divide-slate-100">
      {members.map((member) => {
        const manageable = member.userId !== me.id && canManageMember(me.role, member.role)
        const capEditable = member.role !== 'owner' && (manageable || (member.userId === me.id && can(me.role, 'members')))
        const label = member.name ?? member.email
        return (
          <li key={member.userId} className="flex flex-col gap-4 px-6 py-5 sm:px-8 lg:flex-row lg:items-center" data-testid="team-member">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">
                {label}
                {member.userId === me.id ? <span className="ml-2 text-sm font-normal text-slate-500">{t('team.you')}</span> : null}
              </p>
              {member.name ? <p className="truncate text-sm text-slate-600">{member.email}</p> : null}
              <p className="mt-1 text-sm text-slate-600">
                {member.monthlyCap === null
                  ? t('team.spentUncapped', { spent: number.format(member.spentThisMonth) })
                  : t('team.spentCapped', { spent: number.format(member.spentThisMonth), cap: number.format(member.monthlyCap) })}
              </p>
            </div>
            {manageable ? (
              <MemberForm intent="role" memberId={member.userId} label={t('team.roleOf', { name: label })} button={t('team.saveRole')}>
                <select name="role" defaultValue={member.role} className={SELECT}>
                  {ASSIGNABLE_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`team.roles.${role}`)}
                    </option>
                  ))}
                </select>
              </MemberForm>
            ) : (
              <span className="inline-flex w-fit rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700">{t(`team.roles.${member.role}`)}</span>
            )}
            {capEditable ? (
              <MemberForm intent="cap" memberId={member.userId} label={t('team.capOf', { name: label })} button={t('team.saveCap')}>
                <input type="number" name="monthlyCap" min={0} max={MAX_MONTHLY_CAP} inputMode="numeric" defaultValue={member.monthlyCap ?? ''} placeholder={t('team.capNone')} className={INPUT} />
              </MemberForm>
            ) : null}
            <MemberActions member={member} me={me} manageable={manageable} label={label} />
          </li>
        )
      })}
    </ul>
  )
}

/** One change to one member (its role, its cap): the control, labelled for screen readers, and its button. */
function MemberForm({ intent, memberId, label, button, children }: { intent: 'role' | 'cap'; memberId: string; label: string; button: string; children: React.ReactNode }) {
  return (
    <Form method="post" className="flex items-end gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="memberId" value={memberId} />
      <label className="text-sm text-slate-700">
        <span className="sr-only">{label}</span>
        {children}
      </label>
      <Button type="submit" variant="secondary" size="sm">
        {button}
      </Button>
    </Form>
  )
}

function MemberActions({ member, me, manageable, label }: { member: TeamMemberView; me: { id: string; role: WorkspaceRole }; manageable: boolean; label: string }) {
  const { t } = useTranslation()
  const transferable = me.role === 'owner' && member.userId !== me.id
  if (!manageable && !transferable) return null
  return (
    <div className="flex flex-wrap gap-2">
      {/* Both ask first (the page shows what follows and the confirming form): links, so it works without JavaScript. */}
      {transferable ? (
        <Link to={`?confirm=transfer&member=${member.userId}`} preventScrollReset className={buttonClasses({ variant: 'ghost', size: 'sm' })} aria-label={t('team.transferTo', { name: label })}>
          {t('team.transfer')}
        </Link>
      ) : null}
      {manageable ? (
        <Link
          to={`?confirm=remove&member=${member.userId}`}
          preventScrollReset
          className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'text-red-700 hover:bg-red-50 hover:text-red-800' })}
          aria-label={t('team.removeMember', { name: label })}
        >
          {t('team.remove')}
        </Link>
      ) : null}
    </div>
  )
}
