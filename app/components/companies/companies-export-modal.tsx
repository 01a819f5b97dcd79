import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { ExportModal, type ExportCommand } from '../exports/export-modal.tsx'
import { RiskShieldFields } from '../search/risk-shield-fields.tsx'

const loadSchema = () => import('#app/domain/export-commands.ts').then((module) => module.CreateRegistryExportSchema)

/**
 * "Export these companies": the search page's export modal for the registry's establishments of the page's filters,
 * posted as CreateRegistryExportSchema to the page's own URL. The registry data is what this export is for: always
 * delivered and free (createExport forces it), so it is no choice here (the toggles are shown as outside France,
 * without it) and stays out of the estimate; a note says so.
 */
export function CompaniesExportModal({
  filters,
  idempotencyKey,
  ...modal
}: Omit<React.ComponentProps<typeof ExportModal>, 'command' | 'title' | 'description' | 'france' | 'requireEnrichment' | 'note'> & {
  /** registryFiltersSchema's input, as JSON: exactly the establishments counted. */
  filters: string
  idempotencyKey: string
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const command: ExportCommand = {
    intent: 'create-registry-export',
    action: `/companies${location.search}`,
    formId: 'companies-export-form',
    loadSchema,
    fields: (
      <>
        <input type="hidden" name="intent" value="create-registry-export" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="filters" value={filters} />
        <RiskShieldFields hintKey="companies.export.riskHint" />
      </>
    ),
  }
  const note = (
    <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset" data-testid="registry-free">
      {t('companies.export.registryFree')}
    </p>
  )
  return <ExportModal {...modal} command={command} title={t('companies.export.title')} description={t('companies.export.description')} france={false} requireEnrichment={false} note={note} />
}
