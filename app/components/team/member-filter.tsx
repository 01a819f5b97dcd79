import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { MemberChoice } from '#app/domain/team.ts'
import { Button } from '../ui/button.tsx'

const SELECT_CLASSES =
  'mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none sm:w-56'

/** "Created by": everyone, or one member of the team; submits its GET form on change (with JS). */
export function MemberSelect({ members, member }: { members: MemberChoice[]; member: string }) {
  const { t } = useTranslation()
  return (
    <div className="min-w-0 flex-1 sm:flex-none">
      <label htmlFor="member-filter" className="block text-sm font-medium text-slate-700">
        {t('exports.memberLabel')}
      </label>
      <select id="member-filter" name="member" defaultValue={member} key={member} onChange={(event) => event.currentTarget.form?.requestSubmit()} className={SELECT_CLASSES}>
        <option value="">{t('exports.memberAll')}</option>
        {members.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The same as a list's own GET form (saved searches): submitted on change with JS, by its button without. */
export function MemberFilter({ members, member }: { members: MemberChoice[]; member: string }) {
  const { t } = useTranslation()
  if (!members.length) return null
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      <MemberSelect members={members} member={member} />
      <noscript>
        <Button type="submit" variant="secondary">
          {t('exports.apply')}
        </Button>
      </noscript>
    </Form>
  )
}
