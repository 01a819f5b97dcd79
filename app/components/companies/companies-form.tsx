import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { COMPANIES_FIELDS as F, HEADCOUNT_CHOICES, LEGAL_FORM_FAMILY_IDS, REGISTRY_LABEL_IDS, type CompaniesQuery } from '#app/domain/companies-form.ts'
import { cn } from '#app/utils/misc.ts'
import { Button } from '../ui/button.tsx'

export interface CompaniesFormOptions {
  /** Labels of the categories that have NAF codes. */
  categories: string[]
  /** "10.71C — Boulangerie…" for every NAF subclass. */
  naf: string[]
  regions: Array<{ code: string; name: string }>
  departments: Array<{ code: string; name: string; region: string }>
}

export type CompaniesFieldErrors = Partial<Record<'sector' | 'nafAdd' | 'region' | 'department' | 'city', string>>

const inputClasses =
  'mt-1.5 block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-invalid:ring-red-400'
const checkboxClasses = 'size-4 shrink-0 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'

/**
 * The `/companies` search: a GET form (the URL is the search), the same with and without JavaScript. Activities are
 * chosen by category or by NAF label through native suggestion lists, and stay as checkboxes once chosen; the place
 * is a region, a department and a commune or postcode. Script only narrows the departments to the region chosen.
 */
export function CompaniesForm({
  query,
  chosenNaf,
  options,
  errors,
  pending,
}: {
  query: CompaniesQuery
  chosenNaf: Array<{ code: string; label: string | null }>
  options: CompaniesFormOptions
  errors: CompaniesFieldErrors
  pending: boolean
}) {
  const { t } = useTranslation()
  return (
    <Form method="get" action="/companies" className="space-y-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <ActivityFields query={query} chosenNaf={chosenNaf} options={options} errors={errors} />
      <PlaceFields query={query} options={options} errors={errors} />
      <div className="grid gap-5 border-t border-slate-100 pt-5 lg:grid-cols-3">
        <CheckboxGroup legend={t('companies.form.headcount')} name={F.headcount} chosen={query.headcount} items={HEADCOUNT_CHOICES.map((band) => ({ value: band, label: t(`companies.headcountBands.${band}`) }))} />
        <CheckboxGroup legend={t('companies.form.legalForm')} name={F.legalForm} chosen={query.legalForm} items={LEGAL_FORM_FAMILY_IDS.map((id) => ({ value: id, label: t(`companies.legalForms.${id}`) }))} />
        <CheckboxGroup legend={t('companies.form.labels')} name={F.label} chosen={query.label} items={REGISTRY_LABEL_IDS.map((id) => ({ value: id, label: t(`companies.registryLabels.${id}`) }))} />
      </div>

      <div className="flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name={F.activeOnly} value="1" defaultChecked={query.activeOnly} className={checkboxClasses} />
          {t('companies.form.activeOnly')}
        </label>
        <Button type="submit" name={F.run} value="1" pending={pending} className="min-w-32">
          {pending ? t('search.searching') : t('search.search')}
        </Button>
      </div>
    </Form>
  )
}

type FieldsProps = { query: CompaniesQuery; options: CompaniesFormOptions; errors: CompaniesFieldErrors }

/** A category, an activity picked by label, and the activities already chosen (unticking one drops it). */
function ActivityFields({ query, chosenNaf, options, errors }: FieldsProps & { chosenNaf: Array<{ code: string; label: string | null }> }) {
  const { t } = useTranslation()
  return (
    <fieldset className="space-y-4">
      <legend className="text-base font-semibold text-slate-900">{t('companies.form.activity')}</legend>
      <div className="grid gap-4 md:grid-cols-2">
        <TextField name={F.sector} label={t('companies.form.category')} hint={t('companies.form.categoryHint')} defaultValue={query.sector} list="companies-categories" error={errors.sector} />
        <TextField name={F.nafAdd} label={t('companies.form.naf')} hint={t('companies.form.nafHint')} defaultValue={query.nafAdd} list="companies-naf" error={errors.nafAdd} />
      </div>
      <datalist id="companies-categories">
        {options.categories.map((label) => (
          <option key={label} value={label} />
        ))}
      </datalist>
      <datalist id="companies-naf">
        {options.naf.map((text) => (
          <option key={text} value={text} />
        ))}
      </datalist>
      {chosenNaf.length ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t('companies.form.chosenNaf')}</legend>
          <ul className="mt-2 flex flex-wrap gap-2">
            {chosenNaf.map(({ code, label }) => (
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
      ) : null}
    </fieldset>
  )
}

/** Region, department (narrowed to the region once script runs) and a commune or postcode. */
function PlaceFields({ query, options, errors }: FieldsProps) {
  const { t } = useTranslation()
  const [region, setRegion] = useState(query.region)
  const regionCode = options.regions.find((r) => r.name === region || r.code === region)?.code
  const departments = regionCode ? options.departments.filter((d) => d.region === regionCode) : options.departments
  return (
    <fieldset className="space-y-4 border-t border-slate-100 pt-5">
      <legend className="text-base font-semibold text-slate-900">{t('companies.form.place')}</legend>
      <div className="grid gap-4 md:grid-cols-3">
        <SelectField name={F.region} label={t('search.region')} value={region} onChange={setRegion} placeholder={t('companies.form.anyRegion')} error={errors.region} options={options.regions.map((r) => r.name)} />
        <SelectField
          key={regionCode ?? 'all'}
          name={F.department}
          label={t('search.department')}
          // Another region chosen here: the department sent belongs to the old one.
          defaultValue={region === query.region ? query.department : ''}
          placeholder={t('companies.form.anyDepartment')}
          error={errors.department}
          options={departments.map((d) => `${d.name} (${d.code})`)}
          values={departments.map((d) => d.code)}
        />
        <TextField name={F.city} label={t('companies.form.city')} hint={t('companies.form.cityHint')} defaultValue={query.city} error={errors.city} />
      </div>
      <p className="text-xs text-slate-500">{t('companies.form.planHint')}</p>
    </fieldset>
  )
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1.5 text-xs text-red-700">
      {error}
    </p>
  ) : null
}

function TextField({ name, label, hint, defaultValue, list, error }: { name: string; label: string; hint?: string; defaultValue: string; list?: string; error?: string }) {
  const id = `companies-${name}`
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} name={name} type="text" list={list} defaultValue={defaultValue} maxLength={200} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={inputClasses} />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  )
}

function SelectField({
  name,
  label,
  placeholder,
  options,
  values = options,
  value,
  defaultValue,
  onChange,
  error,
}: {
  name: string
  label: string
  placeholder: string
  options: string[]
  values?: string[]
  value?: string
  defaultValue?: string
  onChange?: (value: string) => void
  error?: string
}) {
  const id = `companies-${name}`
  const current = value ?? defaultValue ?? ''
  // A value sent that is not in the list (typed in the URL) stays visible, so the error names what was sent.
  const unknown = current && !values.includes(current) && !options.includes(current) ? current : null
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name={name}
        {...(onChange ? { value: current, onChange: (event: React.ChangeEvent<HTMLSelectElement>) => onChange(event.target.value) } : { defaultValue: current })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(inputClasses, 'pr-8')}
      >
        <option value="">{placeholder}</option>
        {unknown ? <option value={unknown}>{unknown}</option> : null}
        {options.map((option, index) => (
          <option key={values[index]} value={values[index]}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  )
}

function CheckboxGroup({ legend, name, chosen, items }: { legend: string; name: string; chosen: readonly string[]; items: Array<{ value: string; label: string }> }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <ul className="mt-2 grid gap-1.5 sm:grid-cols-2 lg:grid-cols-1">
        {items.map((item) => (
          <li key={item.value}>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name={name} value={item.value} defaultChecked={chosen.includes(item.value)} className={checkboxClasses} />
              {item.label}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  )
}
