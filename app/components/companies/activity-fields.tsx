import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { COMPANIES_FIELDS as F, nafCodeIn, nafOptionParts } from '#app/domain/companies-form.ts'
import { filterByMatch, normalizeForSearch } from '#app/domain/text.ts'
import { CategoryPicker, PickerCombobox } from '#app/utils/lazy-combobox.tsx'
import { NoJsTextInput } from '../search/no-js-pickers.tsx'
import type { CompaniesFieldErrors, CompaniesFormOptions } from './companies-form.tsx'

export interface ChosenNaf {
  code: string
  label: string | null
}

const checkboxClasses = 'size-4 shrink-0 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'
/** As many activity options as the category picker shows categories: enough to pick from, few enough to read. */
const NAF_OPTIONS_SHOWN = 50

/**
 * A category, activities picked by label (several: each pick joins the chosen ones), and the activities chosen, as
 * ticked checkboxes (unticking one drops it). Without JavaScript the category and the activity are text with the
 * browser's suggestions, one activity per search.
 */
export function ActivityFields({
  sector,
  nafAdd,
  onSectorChange,
  chosen,
  onChoose,
  options,
  errors,
  enhanced,
}: {
  sector: { value: string; label: string }
  /** The activity typed without JavaScript and refused: shown again as typed. */
  nafAdd: string
  onSectorChange: (value: string, label: string) => void
  chosen: ChosenNaf[]
  onChoose: (naf: ChosenNaf) => void
  options: CompaniesFormOptions
  errors: CompaniesFieldErrors
  enhanced: boolean
}) {
  const { t } = useTranslation()
  const category = { id: `companies-${F.sector}`, name: F.sector, label: t('companies.form.category'), placeholder: t('search.categoryPlaceholder'), hint: t('companies.form.categoryHint'), error: errors.sector }
  const activity = { id: `companies-${F.nafAdd}`, name: F.nafAdd, label: t('companies.form.naf'), placeholder: t('companies.form.nafPlaceholder'), error: errors.nafAdd }
  return (
    <fieldset className="space-y-4">
      <legend className="text-base font-semibold text-slate-900">{t('companies.form.activity')}</legend>
      <div className="grid items-start gap-4 md:grid-cols-2">
        {enhanced ? (
          <>
            <CategoryPicker {...category} value={sector.value} displayValue={sector.label} allowCustom={false} onChange={onSectorChange} />
            <NafPicker {...activity} hint={t('companies.form.nafHintJs')} naf={options.naf} chosen={chosen} onChoose={onChoose} />
          </>
        ) : (
          <>
            <NoJsTextInput {...category} value={sector.label} suggestions={options.categories} />
            <NoJsTextInput {...activity} hint={t('companies.form.nafHint')} value={nafAdd} suggestions={options.naf} />
          </>
        )}
      </div>
      {chosen.length ? <ChosenActivities chosen={chosen} /> : null}
    </fieldset>
  )
}

/** The activity combobox: a NAF subclass found by its code or words of its label; picking one adds it to the chosen. */
function NafPicker({
  id,
  name,
  label,
  placeholder,
  hint,
  error,
  naf,
  chosen,
  onChoose,
}: {
  id: string
  name: string
  label: string
  placeholder: string
  hint: string
  error?: string
  naf: string[]
  chosen: ChosenNaf[]
  onChoose: (naf: ChosenNaf) => void
}) {
  const { t } = useTranslation()
  const [query, setQuery] = useState('')
  const keyed = useMemo(() => naf.map((text) => ({ text, key: normalizeForSearch(text) })), [naf])
  const taken = new Set(chosen.map((entry) => entry.code))
  const items = filterByMatch(
    keyed.filter((entry) => !taken.has(nafCodeIn(entry.text) ?? '')),
    (entry) => entry.key,
    query,
    NAF_OPTIONS_SHOWN,
  )
  return (
    <PickerCombobox
      id={id}
      label={label}
      name={name}
      // Each pick joins the chosen activities below and leaves the field empty for the next one.
      value=""
      displayValue=""
      options={items.map((entry) => ({ value: entry.text, label: entry.text }))}
      onQueryChange={setQuery}
      onChange={(option) => {
        const picked = option ? nafOptionParts(option.value) : null
        if (picked) onChoose(picked)
      }}
      placeholder={placeholder}
      status={query.trim() && items.length === 0 ? t('companies.form.noActivity') : null}
      hint={hint}
      error={error}
    />
  )
}

function ChosenActivities({ chosen }: { chosen: ChosenNaf[] }) {
  const { t } = useTranslation()
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('companies.form.chosenNaf')}</legend>
      <ul className="mt-2 flex flex-wrap gap-2">
        {chosen.map(({ code, label }) => (
          <li key={code}>
            <label className="flex items-center gap-2 rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-900 ring-1 ring-brand-200">
              <input type="checkbox" name={F.naf} value={code} defaultChecked className={checkboxClasses} />
              <span>
                <span className="font-medium tabular-nums">{code}</span>
                {label ? ` · ${label}` : ''}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-xs text-slate-500">{t('companies.form.chosenNafHint')}</p>
    </fieldset>
  )
}
