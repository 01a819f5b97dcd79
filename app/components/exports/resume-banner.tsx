import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useIsPending } from '#app/utils/misc.ts'
import { PlansLink } from '../billing/plans-link.tsx'
import { Button } from '../ui/button.tsx'
import { useCommandForm } from './use-command-form.ts'

/** The interrupted banner with its Resume button (SPEC §2), shown when the domain's offersResume says so. */
export function ResumeBanner() {
  const { t } = useTranslation()
  return (
    <div className="flex flex-col gap-3 rounded-2xl bg-amber-50 p-5 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between" role="status">
      <div>
        <p className="font-semibold text-amber-900">{t('exports.detail.interruptedTitle')}</p>
        <p className="mt-1 text-sm text-amber-800">
          {t('exports.detail.interruptedBody')} <PlansLink />
        </p>
      </div>
      <ResumeButton />
    </div>
  )
}

function ResumeButton() {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'resume' })
  const formProps = useCommandForm('resume-form', 'ResumeCommandSchema')
  return (
    <Form method="post" {...formProps}>
      <Button type="submit" name="intent" value="resume" pending={pending}>
        {t('exports.detail.resume')}
      </Button>
    </Form>
  )
}
