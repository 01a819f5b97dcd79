import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useIsPending } from '#app/utils/misc.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'
import { Modal, ModalCancelLink } from '../ui/modal.tsx'
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
      closeHref={closeHref}
    >
      <Form method="post" className="space-y-4" {...formProps}>
        {warnRunning ? <Alert tone="warning">{t('exports.detail.deleteRunningWarning')}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <ModalCancelLink to={closeHref} />
          <Button type="submit" name="intent" value="delete" variant="danger" pending={pending}>
            {pending ? t('exports.detail.deleting') : t('exports.detail.deleteConfirm')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}
