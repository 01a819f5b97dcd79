import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { applyToggleRules, NO_ENRICHMENT, optionsFromValues, selectedTypes, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { EXPORT_NAME_MAX } from '#app/domain/enrichment.ts'
import type { CreateExportSchema, CreateRegistryExportSchema, LaunchListSchema } from '#app/domain/export-commands.ts'
import { canStartExport, errorNeedsPlans, PLANS_PATH } from '#app/domain/exports.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { useHydrated, useIsPending } from '#app/utils/misc.ts'
import { ErrorAlert, PlansLink } from '../billing/plans-link.tsx'
import { useTypedBeforeHydration } from '#app/utils/typed-before-hydration.ts'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { Modal, ModalCancelLink } from '../ui/modal.tsx'
import { EnrichmentToggles } from './enrichment-toggles.tsx'
import { ExportCostPanel, type ExportCostInfo } from './export-cost-panel.tsx'
import type { FilterValues } from '../search/search-filters-panel.tsx'
import { OnlyNewOption } from './only-new-option.tsx'
import { SearchCommandFields, useSearchPageAction } from '../search/search-command-fields.tsx'

const loadCreateExportSchema = () => import('#app/domain/export-commands.ts').then((module) => module.CreateExportSchema)

export interface ExportFormState {
  name: string
  options: EnrichmentOptions
  error?: string
  /** The error's code, when the UI offers a way out beside it (insufficient credits → plans). */
  code?: string
  fieldError?: string
  /** The max leads field as typed, and its refusal (above the export limit). */
  maxLeads?: string
  maxLeadsError?: string
  /** "Only new businesses" as it was sent. */
  onlyNew?: boolean
  /** conform's answer for the form (validated with CreateExportSchema on both sides). */
  result?: SubmissionResult<string[]>
}

const DEFAULT_OPTIONS: EnrichmentOptions = { ...NO_ENRICHMENT, phone: true, website: true, email: true, social: true }

/**
 * The choices the modal holds in state (enrichments, max leads), from the last submission, and what the user typed
 * or ticked before the scripts arrived once they do.
 */
function useExportChoices(last: ExportFormState | undefined, france: boolean) {
  const [options, setOptions] = useState<EnrichmentOptions>(() => applyToggleRules(last?.options ?? { ...DEFAULT_OPTIONS, admin_fr_info: france }, { france }))
  const [maxLeads, setMaxLeads] = useState(last?.maxLeads ?? '')
  const formRef = useTypedBeforeHydration((typed) => {
    const chosen = typed.get('options')
    if (chosen) setOptions(optionsFromValues(chosen, { france }))
    const max = typed.get('maxLeads')?.[0]
    if (max !== undefined) setMaxLeads(max)
  })
  return { options, setOptions, maxLeads, setMaxLeads, formRef }
}

/** What one page's export command sends besides the user's choices, where, and validated with which schema. */
export interface ExportCommand {
  intent: string
  /** The page's own URL (with its search): without JavaScript a refusal (4xx) renders the page and this modal again. */
  action: string
  /** The hidden fields: what the export is of and the idempotency key. */
  fields: React.ReactNode
  formId: string
  /** The schema the action parses the command with, loaded with the modal's validation. */
  loadSchema: () => Promise<typeof CreateExportSchema | typeof CreateRegistryExportSchema | typeof LaunchListSchema>
}

/**
 * The export modal of the search page and of /companies: name, enrichment toggles, only new, max leads and the cost
 * estimate, posted as the page's `command`. `requireEnrichment`: an export of nothing but the map's data is refused
 * (the registry's export always carries its registry data, free, which `note` says).
 */
export function ExportModal({
  command,
  title,
  description,
  france,
  requireEnrichment = true,
  note,
  credits,
  cost,
  closeHref,
  defaultName,
  last,
}: {
  command: ExportCommand
  title: string
  description: string
  france: boolean
  requireEnrichment?: boolean
  note?: React.ReactNode
  credits: number
  cost: ExportCostInfo
  closeHref: string
  defaultName: string
  last?: ExportFormState
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const pending = useIsPending({ intent: command.intent, formAction: command.action })
  const { options, setOptions, maxLeads, setMaxLeads, formRef } = useExportChoices(last, france)
  const nothingSelected = requireEnrichment && selectedTypes(options).length === 0
  // Zero credits: say so before the user fills anything in (the server refuses anyway).
  const noCredits = !canStartExport(credits)
  // The app's own localized validation instead of the browser's bubble (noValidate), with and without JS.
  const [form, fields] = useForm({
    id: command.formId,
    lastResult: last?.result,
    ...useLazyValidation(command.formId, command.loadSchema, { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' }),
  })
  const nameErrors = fields.name.errors?.map((key) => t(key, { max: EXPORT_NAME_MAX })) ?? (last?.fieldError ? [last.fieldError] : undefined)
  return (
    <Modal title={title} description={description} size="lg" closeHref={closeHref}>
      <Form ref={formRef} method="post" action={command.action} {...getFormProps(form)} className="space-y-5">
        {command.fields}
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
        <EnrichmentToggles value={options} onChange={setOptions} france={france} />
        {note}
        <OnlyNewOption defaultChecked={last?.onlyNew} />
        {hydrated && nothingSelected ? <p className="text-sm text-amber-700">{t('exports.errors.noEnrichment')}</p> : null}
        {noCredits ? null : (
          <ExportCostPanel cost={cost} credits={credits} options={options} field={fields.maxLeads} typed={maxLeads} onTyped={setMaxLeads} last={last} hydrated={hydrated} />
        )}
        <ExportModalActions closeHref={closeHref} noCredits={noCredits} pending={pending} disabled={hydrated && nothingSelected} />
      </Form>
    </Modal>
  )
}

/** "Enrich and export" of the search page: the search's criteria and filters, posted to the search route's action. */
export function SearchExportModal({
  criteria,
  idempotencyKey,
  filters,
  ...modal
}: Omit<React.ComponentProps<typeof ExportModal>, 'command' | 'title' | 'description'> & {
  criteria: SearchCriteria
  idempotencyKey: string
  /** The search's filters, sent with the command so the export applies them. */
  filters: FilterValues
}) {
  const { t } = useTranslation()
  const command: ExportCommand = {
    intent: 'create-export',
    action: useSearchPageAction(),
    formId: 'export-form',
    loadSchema: loadCreateExportSchema,
    fields: (
      <>
        <SearchCommandFields criteria={criteria} filters={filters} />
        <input type="hidden" name="intent" value="create-export" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      </>
    ),
  }
  return <ExportModal {...modal} command={command} title={t('exports.modal.title')} description={t('exports.modal.description')} />
}

/** Cancel, then Start export, or the way to the plans when there is no credit to start with. */
function ExportModalActions({ closeHref, noCredits, pending, disabled }: { closeHref: string; noCredits: boolean; pending: boolean; disabled: boolean }) {
  const { t } = useTranslation()
  return (
    // Sticky: the primary action stays in view however long the form (1440×900 and 375×812 alike).
    <div className="sticky bottom-0 z-10 -mx-6 -mb-6 flex flex-col-reverse gap-3 rounded-b-2xl border-t border-slate-200 bg-white/95 px-6 py-4 backdrop-blur-sm sm:-mx-8 sm:-mb-8 sm:flex-row sm:justify-end sm:px-8" data-testid="export-actions">
      <ModalCancelLink to={closeHref} />
      {noCredits ? (
        <Link to={PLANS_PATH} className={buttonClasses()}>
          {t('upsell.seePlans')}
        </Link>
      ) : (
        <Button type="submit" pending={pending} disabled={disabled}>
          {pending ? t('exports.modal.submitting') : t('exports.modal.submit')}
        </Button>
      )}
    </div>
  )
}
