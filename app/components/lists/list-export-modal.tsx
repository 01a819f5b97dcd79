import { useTranslation } from 'react-i18next'
import { ExportModal, type ExportCommand } from '../exports/export-modal.tsx'
import { RiskShieldFields } from '../search/risk-shield-fields.tsx'

const loadSchema = () => import('#app/domain/export-commands.ts').then((module) => module.LaunchListSchema)

/**
 * "Enrich this list": the export modal of the search page for a list's rows, posted as LaunchListSchema to the
 * confirm page. The cost counts the rows the match estimate says at most (its upper bound); unmatched rows cost
 * nothing, and a note says so.
 */
export function ListExportModal({
  listId,
  idempotencyKey,
  ...modal
}: Omit<React.ComponentProps<typeof ExportModal>, 'command' | 'title' | 'description' | 'france' | 'note'> & { listId: string; idempotencyKey: string }) {
  const { t } = useTranslation()
  // The modal stays open on the answer to its post (a refusal renders it again, with and without JavaScript).
  const action = `/lists/${listId}/confirm?launch=1`
  const command: ExportCommand = {
    intent: 'launch-list',
    action,
    formId: 'list-export-form',
    loadSchema,
    fields: (
      <>
        <input type="hidden" name="intent" value="launch-list" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <RiskShieldFields defaultOn={false} hintKey="lists.launch.riskHint" />
      </>
    ),
  }
  const note = (
    <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset" data-testid="list-free-rows">
      {t('lists.launch.unmatchedFree')}
    </p>
  )
  return <ExportModal {...modal} command={command} title={t('lists.launch.title')} description={t('lists.launch.description')} france note={note} />
}
