import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLANS_PATH } from '#app/domain/exports.ts'
import { cn } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'

/** "See plans": wherever a message says the credits ran out, the way to get more sits beside it. */
export function PlansLink({ className }: { className?: string }) {
  const { t } = useTranslation()
  return (
    <Link to={PLANS_PATH} className={cn('font-semibold whitespace-nowrap underline underline-offset-2 hover:no-underline', className)}>
      {t('upsell.seePlans')}
      <span aria-hidden="true"> →</span>
    </Link>
  )
}

/** An error alert; when the error is one a plan change solves, it links to the plans. */
export function ErrorAlert({ message, withPlansLink = false }: { message: string; withPlansLink?: boolean }) {
  return (
    <Alert tone="error">
      {message}
      {withPlansLink ? (
        <>
          {' '}
          <PlansLink />
        </>
      ) : null}
    </Alert>
  )
}
