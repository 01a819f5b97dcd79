import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { applyToggleRules, EXPORT_NAME_MAX, NO_ENRICHMENT, optionsFromValues, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { useHydrated, useIsPending } from '#app/utils/misc.ts'
import { useTypedBeforeHydration } from '#app/utils/typed-before-hydration.ts'
import { EnrichmentToggles } from '../exports/enrichment-toggles.tsx'
import type { FilterValues } from '../search/search-filters-panel.tsx'
import { RiskShieldFields, withoutRiskFilters } from '../search/risk-shield-fields.tsx'
import { ErrorAlert } from '../billing/plans-link.tsx'
import { Button } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { Modal, ModalCancelLink } from '../ui/modal.tsx'
import { PresetChoice } from './preset-choice.tsx'
import { SearchCommandFields, useSearchPageAction } from '../search/search-command-fields.tsx'

const loadSchema = () => import('#app/domain/saved-search-commands.ts').then((module) => module.SaveSearchSchema)

export interface SaveSearchFormState {
  result?: SubmissionResult<string[]>
  error?: string
  upgrade?: boolean
}

const DEFAULT_OPTIONS: EnrichmentOptions = { ...NO_ENRICHMENT, phone: true, website: true, email: true }

/** The values a refused post sent, so the dialog renders again as the user left it. */
function sentValue(result: SubmissionResult<string[]> | undefined, name: string): unknown {
  return (result?.initialValue as Record<string, unknown> | undefined)?.[name]
}

/** "Save this search": a name, the enrichments, the file's columns and a cap; posts to the search route's action. */
export function SaveSearchModal({
  criteria,
  filters,
  france,
  defaultName,
  closeHref,
  last,
}: {
  criteria: SearchCriteria
  filters: FilterValues
  france: boolean
  defaultName: string
  closeHref: string
  last?: SaveSearchFormState
}) {
  const { t } = useTranslation()
  const formAction = useSearchPageAction()
  const hydrated = useHydrated()
  const pending = useIsPending({ intent: 'save-search', formAction })
  const sentOptions = sentValue(last?.result, 'options')
  const [options, setOptions] = useState<EnrichmentOptions>(() =>
    applyToggleRules(sentOptions ? optionsFromValues([sentOptions].flat() as string[], { france }) : { ...DEFAULT_OPTIONS, admin_fr_info: france }, { france }),
  )
  const formRef = useTypedBeforeHydration((typed) => {
    const chosen = typed.get('options')
    if (chosen) setOptions(optionsFromValues(chosen, { france }))
  })
  const [form, fields] = useForm({
    id: 'save-search-form',
    lastResult: last?.result,
    defaultValue: { name: defaultName, preset: 'all' },
    ...useLazyValidation('save-search-form', loadSchema, { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' }),
  })
  const translate = (errors?: string[]) => errors?.map((key) => t(key, { max: EXPORT_NAME_MAX }))
  return (
    <Modal
      title={t('savedSearches.save.title')}
      description={t('savedSearches.save.description')}
      size="lg"
      closeHref={closeHref}
    >
      <Form ref={formRef} method="post" action={formAction} {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value="save-search" />
        {hydrated ? <input type="hidden" name="timeZone" value={Intl.DateTimeFormat().resolvedOptions().timeZone} /> : null}
        <SearchCommandFields criteria={criteria} filters={withoutRiskFilters(filters)} />
        {last?.error ? <ErrorAlert message={last.error} withPlansLink={last.upgrade === true} /> : null}
        <Field
          label={t('savedSearches.save.name')}
          errors={translate(fields.name.errors)}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: EXPORT_NAME_MAX, autoComplete: 'off', autoFocus: true }}
        />
        <div>
          <EnrichmentToggles value={options} onChange={setOptions} france={france} />
          {fields.options.errors?.length ? <p className="mt-1.5 text-sm text-red-600">{translate(fields.options.errors)?.join(' ')}</p> : null}
        </div>
        <RiskShieldFields sent={last?.result?.initialValue as Record<string, unknown> | undefined} />
        <PresetChoice name={fields.preset.name} defaultValue={String(sentValue(last?.result, 'preset') ?? 'all')} />
        <Field
          label={t('savedSearches.save.maxLeads')}
          hint={t('savedSearches.save.maxLeadsHint')}
          errors={translate(fields.maxLeads.errors)}
          inputProps={{ ...getInputProps(fields.maxLeads, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off', className: 'sm:max-w-48' }}
        />
        <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
          <ModalCancelLink to={closeHref} />
          <Button type="submit" pending={pending}>
            {pending ? t('savedSearches.save.submitting') : t('savedSearches.save.submit')}
          </Button>
        </div>
      </Form>
    </Modal>
  )
}

