import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { applyToggleRules, NO_ENRICHMENT, optionsFromValues, selectedTypes, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { EXPORT_NAME_MAX } from '#app/domain/enrichment.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { useHydrated, useIsPending } from '#app/utils/misc.ts'
import { useTypedBeforeHydration } from '#app/utils/typed-before-hydration.ts'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { CloseIcon, Modal } from '../ui/modal.tsx'
import { EnrichmentToggles } from './enrichment-toggles.tsx'

export interface ExportFormState {
  name: string
  options: EnrichmentOptions
  error?: string
  fieldError?: string
}

const DEFAULT_OPTIONS: EnrichmentOptions = { ...NO_ENRICHMENT, phone: true, website: true, email: true, social: true }

/** "Enrich and export": export name + enrichment toggles; posts to the search route's action. */
export function ExportModal({
  criteria,
  france,
  idempotencyKey,
  credits,
  closeHref,
  defaultName,
  last,
}: {
  criteria: SearchCriteria
  france: boolean
  idempotencyKey: string
  credits: number
  closeHref: string
  defaultName: string
  last?: ExportFormState
}) {
  const { t, i18n } = useTranslation()
  const hydrated = useHydrated()
  const [options, setOptions] = useState<EnrichmentOptions>(() => applyToggleRules(last?.options ?? { ...DEFAULT_OPTIONS, admin_fr_info: france }, { france }))
  const formRef = useTypedBeforeHydration((typed) => {
    const chosen = typed.get('options')
    if (chosen) setOptions(optionsFromValues(chosen, { france }))
  })
  const pending = useIsPending({ intent: 'create-export' })
  const nothingSelected = selectedTypes(options).length === 0
  return (
    <Modal
      title={t('exports.modal.title')}
      description={t('exports.modal.description')}
      size="lg"
      closeControl={
        <Link to={closeHref} replace preventScrollReset className="rounded-md p-1 text-slate-400 hover:text-slate-600" aria-label={t('common.close')}>
          <CloseIcon />
        </Link>
      }
    >
      <Form ref={formRef} method="post" action="/?index" className="space-y-5">
        <input type="hidden" name="intent" value="create-export" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        {(['sector', 'country', 'region', 'department', 'city'] as const).map((key) => (
          <input key={key} type="hidden" name={key} value={criteria[key]} />
        ))}
        {last?.error ? <Alert tone="error">{last.error}</Alert> : null}
        <Field
          label={t('exports.modal.name')}
          errors={last?.fieldError ? [last.fieldError] : undefined}
          inputProps={{ name: 'name', type: 'text', required: true, maxLength: EXPORT_NAME_MAX, defaultValue: last?.name ?? defaultName, placeholder: t('exports.modal.namePlaceholder'), autoFocus: true }}
        />
        <EnrichmentToggles value={options} onChange={setOptions} france={france} />
        {hydrated && nothingSelected ? <p className="text-sm text-amber-700">{t('exports.errors.noEnrichment')}</p> : null}
        <p className="text-sm text-slate-500">{t('exports.modal.credits', { count: credits, formatted: new Intl.NumberFormat(i18n.language).format(credits) })}</p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={closeHref} replace preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" pending={pending} disabled={hydrated && nothingSelected}>
            {pending ? t('exports.modal.submitting') : t('exports.modal.submit')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}
