import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useIsPending } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'
import { Modal, ModalCancelLink } from '../ui/modal.tsx'

/** Delete confirmation, reachable by URL (?delete=<id>) so it works without JavaScript. */
export function DeleteSavedSearchModal({ id, name, closeHref }: { id: string; name: string; closeHref: string }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'delete' })
  return (
    <Modal
      title={t('savedSearches.deleteTitle')}
      description={`${name} — ${t('savedSearches.deleteBody')}`}
      size="sm"
      closeHref={closeHref}
    >
      <Form method="post" action="/saved-searches" className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <input type="hidden" name="id" value={id} />
        <ModalCancelLink to={closeHref} />
        <Button type="submit" name="intent" value="delete" variant="danger" pending={pending}>
          {t('savedSearches.deleteConfirm')}
        </Button>
      </Form>
    </Modal>
  )
}
