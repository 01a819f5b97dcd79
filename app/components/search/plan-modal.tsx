import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLANS_PATH } from '#app/domain/exports.ts'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Modal } from '../ui/modal.tsx'

/**
 * The plan-restriction modal (SPEC §2). Opened in place (JS: `onClose`, a button) or by the server's
 * answer (no JS: `closeHref`, a link back to the search without the refused run).
 */
export function PlanModal({ message, modalKey, onClose, closeHref }: { message: string; modalKey: string; onClose?: () => void; closeHref: string }) {
  const { t } = useTranslation()
  return (
    <Modal title={t('search.plan.modalTitle')} onClose={onClose} size="md">
      <div className="space-y-4">
        <Alert tone="warning">{message}</Alert>
        <p className="text-sm text-slate-600">{t(modalKey)}</p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {onClose ? (
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('search.plan.close')}
            </Button>
          ) : (
            <Link to={closeHref} replace className={buttonClasses({ variant: 'secondary' })}>
              {t('search.plan.close')}
            </Link>
          )}
          <Link to={PLANS_PATH} className={buttonClasses()}>
            {t('search.plan.upgrade')}
          </Link>
        </div>
      </div>
    </Modal>
  )
}
