import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { newlySelected, optionsFromValues, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { useHydrated, useIsPending } from '#app/utils/misc.ts'
import { useTypedBeforeHydration } from '#app/utils/typed-before-hydration.ts'
import { ErrorAlert } from '../billing/plans-link.tsx'
import { Button } from '../ui/button.tsx'
import { Modal, ModalCancelLink } from '../ui/modal.tsx'
import { EnrichmentToggles } from './enrichment-toggles.tsx'
import { useCommandForm } from './use-command-form.ts'

/** Add enrichment (completed exports): already-enriched options are locked; at least one new one is needed. */
export function AddEnrichmentModal({
  already,
  france,
  closeHref,
  error,
  errorNeedsPlans = false,
}: {
  already: EnrichmentOptions
  france: boolean
  closeHref: string
  error?: string
  /** Out of credits: the error links to the plans. */
  errorNeedsPlans?: boolean
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [options, setOptions] = useState<EnrichmentOptions>(already)
  const formRef = useTypedBeforeHydration((typed) => {
    const chosen = typed.get('options')
    if (chosen) setOptions(optionsFromValues(chosen, { france, alreadyEnriched: already }))
  })
  const pending = useIsPending({ intent: 'add-enrichment' })
  const formProps = useCommandForm('add-enrichment-form', 'AddEnrichmentCommandSchema')
  const nothingNew = newlySelected(options, already).length === 0
  return (
    <Modal
      title={t('exports.detail.addTitle')}
      description={t('exports.detail.addDescription')}
      closeHref={closeHref}
    >
      <Form ref={formRef} method="post" className="space-y-5" {...formProps}>
        {error ? <ErrorAlert message={error} withPlansLink={errorNeedsPlans} /> : null}
        <EnrichmentToggles value={options} onChange={setOptions} france={france} alreadyEnriched={already} />
        {hydrated && nothingNew ? <p className="text-sm text-slate-500">{t('exports.errors.selectOne')}</p> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <ModalCancelLink to={closeHref} />
          {/* Disabled while nothing new is chosen or while loading (SPEC §5); without JS the server checks. */}
          <Button type="submit" name="intent" value="add-enrichment" pending={pending} disabled={hydrated && nothingNew}>
            {pending ? t('exports.detail.adding') : t('exports.detail.addSubmit')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}
