import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import type { z } from 'zod'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings.team'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { TEAM_FAILURE_STATUS, runTeamCommand } from '#app/.server/workspaces/team-commands.ts'
import { readTeam } from '#app/.server/workspaces/team-view.ts'
import { seatsOnSale } from '#app/.server/workspaces/seats.ts'
import { workspaceCookie } from '#app/.server/workspaces/current.ts'
import { MemberList } from '#app/components/team/member-list.tsx'
import { InvitationList } from '#app/components/team/invitation-list.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { PLANS_PATH } from '#app/domain/exports.ts'
import { TeamCommandSchema, InviteSchema, MAX_EXTRA_SEATS, MAX_MONTHLY_CAP, WORKSPACE_NAME_MAX } from '#app/domain/team.ts'
import { ASSIGNABLE_ROLES, can } from '#app/domain/workspace-roles.ts'
import { pageTexts } from '#app/i18n.ts'
import { useIsPending } from '#app/utils/misc.ts'

await pageTexts('team')

export const handle: AppHandle = { titleKey: 'pages.team' }

const TEAM_PATH = '/settings/team'
const CONFIRMED = ['remove', 'transfer'] as const

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const team = await readTeam(user)
  // "Remove" and "Make owner" ask first: the member named by the link, if still in the team.
  const intent = CONFIRMED.find((candidate) => candidate === url.searchParams.get('confirm'))
  const target = team.members.find((member) => member.userId === url.searchParams.get('member'))
  const confirm = intent && target ? { intent, memberId: target.userId, name: target.name ?? target.email } : null
  return { team, me: { id: user.id, role: user.workspace.role, personal: user.workspace.personal }, done: url.searchParams.get('done'), confirm, seatsOnSale: seatsOnSale() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: TeamCommandSchema })
  // The intent comes back with the errors, so the form that was sent shows them (and keeps what was typed).
  if (submission.status !== 'success') return data({ result: submission.reply(), intent: String(formData.get('intent') ?? '') }, { status: 400 })
  const command = submission.value
  if (command.intent === 'invite' || command.intent === 'resend') await enforceLimit(context, 'teamInvite', user.id)
  const result = await runTeamCommand(user, command, { origin: new URL(request.url).origin })
  if (!result.ok) {
    const message = t(`team.errors.${result.code}`, { email: result.email ?? '' })
    return data({ result: submission.reply({ formErrors: [message] }), intent: command.intent, code: result.code }, { status: TEAM_FAILURE_STATUS[result.code] })
  }
  // Leaving the workspace: back to the one the user acts in next (their personal one), with the switcher's cookie cleared.
  if (command.intent === 'leave') throw redirect('/', { headers: { 'Set-Cookie': await workspaceCookie.serialize('', { maxAge: 0 }) } })
  throw redirect(`${TEAM_PATH}?done=${command.intent}`)
}

export default function TeamRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const { team, me, done, confirm, seatsOnSale: onSale } = loaderData
  const actionData = useActionData<typeof action>()
  const admin = can(me.role, 'members')
  const full = team.seats.used >= team.seats.limit
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to="/settings">{t('common.backToSettings')}</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold text-slate-900">{t('team.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('team.subtitle', { name: team.workspace.name })}</p>
        </div>
        {admin ? (
          <Link to={`${TEAM_PATH}/activity`} className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
            {t('team.activityLink')}
          </Link>
        ) : null}
      </div>
      {done && !actionData ? <Alert tone="success">{t(`team.done.${done}`, { defaultValue: t('team.done.saved') })}</Alert> : null}
      {actionData?.result?.error?.[''] && actionData.intent !== 'invite' ? <Alert tone="error">{actionData.result.error[''].join(' ')}</Alert> : null}
      {confirm ? <ConfirmMember {...confirm} /> : null}
      <SeatsCard seats={team.seats} full={full} owner={can(me.role, 'billing')} paid={team.plan !== 'free_trial'} onSale={onSale} />
      {admin ? <InviteCard key={team.invitations.length} lastResult={actionData?.intent === 'invite' ? actionData.result : undefined} full={full} /> : null}
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <h2 className="px-6 pt-6 text-lg font-semibold text-slate-900 sm:px-8">{t('team.membersTitle', { count: team.members.length })}</h2>
        <MemberList members={team.members} me={me} />
      </div>
      {admin && team.invitations.length ? <InvitationList invitations={team.invitations} /> : null}
      {can(me.role, 'billing') ? <RenameCard name={team.workspace.name} /> : <LeaveCard />}
    </section>
  )
}

function SeatsCard({ seats, full, owner, paid, onSale }: { seats: { used: number; limit: number; extra: number }; full: boolean; owner: boolean; paid: boolean; onSale: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('team.seatsTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600" data-testid="seats-used">{t('team.seatsUsed', { used: seats.used, limit: seats.limit })}</p>
          {full ? <p className="mt-1 text-sm text-slate-600">{paid && owner && onSale ? t('team.seatsFullPaidHint') : t('team.seatsFullHint')}</p> : null}
        </div>
        {full && owner && !(paid && onSale) ? (
          <Link to={PLANS_PATH} className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
            {t('team.upgrade')}
          </Link>
        ) : null}
      </div>
      {owner && paid && onSale ? (
        <Form method="post" className="flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="seats" />
          <Field
            className="sm:w-56"
            label={t('team.extraSeatsLabel')}
            hint={t('team.extraSeatsHint')}
            inputProps={{ name: 'extraSeats', type: 'number', min: 0, max: MAX_EXTRA_SEATS, defaultValue: seats.extra, inputMode: 'numeric', required: true }}
          />
          <Button type="submit" variant="secondary" className="sm:mb-7">
            {t('team.updateSeats')}
          </Button>
        </Form>
      ) : null}
    </div>
  )
}

function InviteCard({ lastResult, full }: { lastResult?: SubmissionResult<string[]> | null; full: boolean }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'invite' })
  const [form, fields] = useForm<z.input<typeof InviteSchema>>({
    id: 'invite-form',
    lastResult,
    defaultValue: { role: 'member' },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
  })
  const translate = (errors?: string[]) => errors?.map((error) => t(error, { max: MAX_MONTHLY_CAP }))
  return (
    <div className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t('team.inviteTitle')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('team.inviteHint')}</p>
      </div>
      {form.errors?.length ? (
        <Alert tone="error" id={form.errorId}>
          {form.errors.join(' ')}
          {full ? (
            <>
              {' '}
              <Link to={PLANS_PATH} className="font-medium underline">
                {t('team.upgrade')}
              </Link>
            </>
          ) : null}
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start">
        <input type="hidden" name="intent" value="invite" />
        <Field label={t('team.emailLabel')} errors={translate(fields.email.errors)} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }} />
        <div>
          <label htmlFor={fields.role.id} className="block text-sm font-medium text-slate-700">
            {t('team.roleLabel')}
          </label>
          <select {...getSelectProps(fields.role)} className="mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none">
            {ASSIGNABLE_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`team.roles.${role}`)}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={t('team.capLabel')}
          errors={translate(fields.monthlyCap.errors)}
          inputProps={{ ...getInputProps(fields.monthlyCap, { type: 'number' }), min: 0, max: MAX_MONTHLY_CAP, placeholder: t('team.capNone'), inputMode: 'numeric' }}
        />
        <Button type="submit" pending={pending} className="sm:mt-6">
          {t('team.invite')}
        </Button>
      </Form>
    </div>
  )
}

function ConfirmMember({ intent, memberId, name }: { intent: 'remove' | 'transfer'; memberId: string; name: string }) {
  const { t } = useTranslation()
  return (
    <div role="alertdialog" aria-labelledby="confirm-member-title" className="space-y-4 rounded-2xl bg-amber-50 p-6 ring-1 ring-amber-200 sm:p-8">
      <h2 id="confirm-member-title" className="text-lg font-semibold text-slate-900">
        {t(`team.confirm.${intent}Title`, { name })}
      </h2>
      <p className="text-sm text-slate-700">{t(`team.confirm.${intent}Body`, { name })}</p>
      <Form method="post" action={TEAM_PATH} className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="memberId" value={memberId} />
        <Button type="submit" variant={intent === 'remove' ? 'danger' : 'primary'} autoFocus>
          {t(`team.confirm.${intent}Button`)}
        </Button>
        <Link to={TEAM_PATH} className={buttonClasses({ variant: 'secondary' })}>
          {t('team.confirm.cancel')}
        </Link>
      </Form>
    </div>
  )
}

function RenameCard({ name }: { name: string }) {
  const { t } = useTranslation()
  return (
    <Form method="post" className="flex flex-col gap-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-end sm:p-8">
      <input type="hidden" name="intent" value="rename" />
      <Field className="flex-1" label={t('team.nameLabel')} hint={t('team.nameHint')} inputProps={{ name: 'name', defaultValue: name, maxLength: WORKSPACE_NAME_MAX, required: true }} />
      <Button type="submit" variant="secondary" className="sm:mb-7">
        {t('team.rename')}
      </Button>
    </Form>
  )
}

function LeaveCard() {
  const { t } = useTranslation()
  return (
    <Form method="post" className="flex flex-col gap-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-8">
      <input type="hidden" name="intent" value="leave" />
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t('team.leaveTitle')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('team.leaveHint')}</p>
      </div>
      <Button type="submit" variant="danger" className="shrink-0">
        {t('team.leave')}
      </Button>
    </Form>
  )
}
