import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation } from 'react-router'
import { applyToggleRules, EXPORT_NAME_MAX, NO_ENRICHMENT, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { canStartExport, errorNeedsPlans, PLANS_PATH } from '#app/domain/exports.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { useHydrated, useIsPending } from '#app/utils/misc.ts'
import { ErrorAlert, PlansLink } from '../billing/plans-link.tsx'
import { EnrichmentToggles } from '../exports/enrichment-toggles.tsx'
import { ExportCostPanel, type ExportCostInfo } from '../exports/export-cost-panel.tsx'
import { OnlyNewOption } from '../exports/only-new-option.tsx'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { CloseIcon, Modal } from '../ui/modal.tsx'

const loadSchema = () => import('#app/domain/export-commands.ts').then((module) => module.CreateRegistryExportSchema)

export interface CompaniesExportState {
  name: string
  options: EnrichmentOptions
  error?: string
  code?: string
  fieldError?: string
  maxLeads?: string
  maxLeadsError?: string
  onlyNew?: boolean
  result?: SubmissionResult<string[]>
}

// The registry data is what this export is for: always delivered and free (createExport forces it). So it is no
// choice here (the toggles are shown as outside France, without it) and stays out of the estimate; a note says so.
const DEFAULT_OPTIONS: EnrichmentOptions = { ...NO_ENRICHMENT, phone: true, website: true, email: true, social: true }

/**
 * "Export these companies": the search page's export modal (name, enrichments, max leads, only new, cost) for the
 * registry's establishments of the page's filters, posted as CreateRegistryExportSchema to the page's own URL so a
 * refusal without JavaScript renders the page and this modal again, everything typed kept.
 */
export function CompaniesExportModal({
  filters,
  idempotencyKey,
  credits,
  cost,
  closeHref,
  defaultName,
  last,
}: {
  /** registryFiltersSchema's input, as JSON: exactly the establishments counted. */
  filters: string
  idempotencyKey: string
  credits: number
  cost: ExportCostInfo
  closeHref: string
  defaultName: string
  last?: CompaniesExportState
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const location = useLocation()
  const formAction = `/companies${location.search}`
  const pending = useIsPending({ intent: 'create-registry-export', formAction })
  const [options, setOptions] = useState<EnrichmentOptions>(() => applyToggleRules(last?.options ?? DEFAULT_OPTIONS, { france: false }))
  const [maxLeads, setMaxLeads] = useState(last?.maxLeads ?? '')
  const noCredits = !canStartExport(credits)
  const [form, fields] = useForm({
    id: 'companies-export-form',
    lastResult: last?.result,
    ...useLazyValidation('companies-export-form', loadSchema, { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' }),
  })
  const nameErrors = fields.name.errors?.map((key) => t(key, { max: EXPORT_NAME_MAX })) ?? (last?.fieldError ? [last.fieldError] : undefined)
  return (
    <Modal title={t('companies.export.title')} description={t('companies.export.description')} size="lg" closeControl={<CloseLink to={closeHref} />}>
      <Form method="post" action={formAction} {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value="create-registry-export" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="filters" value={filters} />
        {noCredits ? (
          <Alert tone="warning" title={t('upsell.noCreditsTitle')}>
            <span data-testid="no-credits-notice">{t('upsell.noCreditsExport')}</span> <PlansLink />
          </Alert>
        ) : null}
        {last?.error ? <ErrorAlert message={last.error} withPlansLink={errorNeedsPlans(last.code) && !noCredits} /> : null}
        <Field
          label={t('exports.modal.name')}
          errors={nameErrors}
          inputProps={{
            id: fields.name.id,
            name: fields.name.name,
            type: 'text',
            'aria-required': true,
            maxLength: EXPORT_NAME_MAX,
            defaultValue: last?.name ?? defaultName,
            placeholder: t('exports.modal.namePlaceholder'),
            autoFocus: !noCredits,
          }}
        />
        <EnrichmentToggles value={options} onChange={setOptions} france={false} />
        <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset" data-testid="registry-free">
          {t('companies.export.registryFree')}
        </p>
        <OnlyNewOption defaultChecked={last?.onlyNew} />
        {noCredits ? null : (
          <ExportCostPanel cost={cost} credits={credits} options={options} field={fields.maxLeads} typed={maxLeads} onTyped={setMaxLeads} last={last} hydrated={hydrated} />
        )}
        <ModalActions closeHref={closeHref} noCredits={noCredits} pending={pending} />
      </Form>
    </Modal>
  )
}

/** Cancel, then Start export, or the way to the plans when there is no credit to start with. */
function ModalActions({ closeHref, noCredits, pending }: { closeHref: string; noCredits: boolean; pending: boolean }) {
  const { t } = useTranslation()
  return (
    // Sticky, as on the search page's modal: the primary action stays in view however long the form.
    <div className="sticky bottom-0 z-10 -mx-6 -mb-6 flex flex-col-reverse gap-3 rounded-b-2xl border-t border-slate-200 bg-white/95 px-6 py-4 backdrop-blur-sm sm:-mx-8 sm:-mb-8 sm:flex-row sm:justify-end sm:px-8">
      <Link to={closeHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
        {t('common.cancel')}
      </Link>
      {noCredits ? (
        <Link to={PLANS_PATH} className={buttonClasses()}>
          {t('upsell.seePlans')}
        </Link>
      ) : (
        <Button type="submit" pending={pending}>
          {pending ? t('exports.modal.submitting') : t('exports.modal.submit')}
        </Button>
      )}
    </div>
  )
}

function CloseLink({ to }: { to: string }) {
  const { t } = useTranslation()
  return (
    <Link to={to} replace preventScrollReset className="inline-flex rounded-md p-1 text-slate-400 hover:text-slate-600" aria-label={t('common.close')}>
      <CloseIcon />
    </Link>
  )
}
