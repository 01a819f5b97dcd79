import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { useIsPending } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { CloseIcon, Modal } from '../ui/modal.tsx'
import { useCommandForm } from './use-command-form.ts'

/** Delete confirmation (SPEC §8): a running export is warned about, the server's refusal is shown here. */
export function DeleteExportModal({ warnRunning, closeHref, error }: { warnRunning: boolean; closeHref: string; error?: string }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'delete' })
  const formProps = useCommandForm('delete-form', 'DeleteCommandSchema')
  return (
    <Modal
      title={t('exports.detail.deleteTitle')}
      description={t('exports.detail.deleteBody')}
      size="sm"
      closeControl={
        <Link to={closeHref} replace preventScrollReset className="rounded-md p-1 text-slate-400 hover:text-slate-600" aria-label={t('common.close')}>
          <CloseIcon />
        </Link>
      }
    >
      <Form method="post" className="space-y-4" {...formProps}>
        {warnRunning ? <Alert tone="warning">{t('exports.detail.deleteRunningWarning')}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={closeHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" name="intent" value="delete" variant="danger" pending={pending}>
            {pending ? t('exports.detail.deleting') : t('exports.detail.deleteConfirm')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}
