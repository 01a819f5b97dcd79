import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { COMPANIES_FIELDS as F, HEADCOUNT_CHOICES, LEGAL_FORM_FAMILY_IDS, nafCodeIn, REGISTRY_LABEL_IDS, withCompaniesPlace, type CompaniesPlace, type CompaniesQuery } from '#app/domain/companies-form.ts'
import { useComboboxReady } from '#app/utils/lazy-combobox.tsx'
import { changedFields } from '#app/utils/typed-before-hydration.ts'
import { Button } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { ActivityFields, type ChosenNaf } from './activity-fields.tsx'
import { PlaceFields } from './place-fields.tsx'

export interface CompaniesFormOptions {
  /** Labels of the categories that have NAF codes. */
  categories: string[]
  /** "10.71C — Boulangerie…" for every NAF subclass. */
  naf: string[]
  regions: Array<{ code: string; name: string }>
  departments: Array<{ code: string; name: string; region: string }>
}

export type CompaniesFieldErrors = Partial<Record<'sector' | 'nafAdd' | 'region' | 'department' | 'city' | 'createdAfter', string>>

const checkboxClasses = 'size-4 shrink-0 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'

/**
 * The `/companies` search: a GET form (the URL is the search), the same with and without JavaScript. The activity is a
 * category or NAF codes picked by label, the place a region, a department and a commune or postcode, with the search
 * page's pickers (app/components/search/pickers.tsx): comboboxes once the form is first touched, server-rendered
 * inputs and selects until then (and for good without JavaScript).
 */
export function CompaniesForm({
  query,
  sectorLabel,
  chosenNaf,
  options,
  errors,
  pending,
}: {
  query: CompaniesQuery
  /** The category sent, as its label in the interface's language. */
  sectorLabel: string
  chosenNaf: ChosenNaf[]
  options: CompaniesFormOptions
  errors: CompaniesFieldErrors
  pending: boolean
}) {
  const { t } = useTranslation()
  const [sector, setSector] = useState({ value: query.sector, label: sectorLabel })
  const [chosen, setChosen] = useState(chosenNaf)
  const [place, setPlace] = useState<CompaniesPlace>({ region: query.region, department: query.department, city: query.city })
  const formRef = useRef<HTMLFormElement>(null)
  // What was typed into the server-rendered fields moves into the comboboxes as they replace them.
  const enhanced = useComboboxReady(formRef, () => {
    const typed = formRef.current ? changedFields(formRef.current) : new Map<string, string[]>()
    const text = (name: string) => typed.get(name)?.[0]?.trim()
    const typedSector = text(F.sector)
    if (typedSector !== undefined) setSector({ value: typedSector, label: typedSector })
    const code = nafCodeIn(text(F.nafAdd) ?? '')
    if (code && !chosen.some((entry) => entry.code === code)) setChosen([...chosen, { code, label: null }])
    let next = place
    for (const level of ['region', 'department', 'city'] as const) {
      const value = text(level)
      if (value !== undefined) next = withCompaniesPlace(next, level, value)
    }
    setPlace(next)
  })
  return (
    <Form ref={formRef} method="get" action="/companies" data-pickers={enhanced ? 'enhanced' : 'native'} className="space-y-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <ActivityFields
        sector={sector}
        nafAdd={query.nafAdd}
        onSectorChange={(value, label) => setSector({ value, label })}
        chosen={chosen}
        onChoose={(naf) => setChosen((current) => [...current, naf])}
        options={options}
        errors={errors}
        enhanced={enhanced}
      />
      <PlaceFields place={place} onChange={setPlace} options={options} errors={errors} enhanced={enhanced} />
      <div className="grid gap-5 border-t border-slate-100 pt-5 lg:grid-cols-3">
        <CheckboxGroup legend={t('companies.form.headcount')} name={F.headcount} chosen={query.headcount} items={HEADCOUNT_CHOICES.map((band) => ({ value: band, label: t(`companies.headcountBands.${band}`) }))} />
        <CheckboxGroup legend={t('companies.form.legalForm')} name={F.legalForm} chosen={query.legalForm} items={LEGAL_FORM_FAMILY_IDS.map((id) => ({ value: id, label: t(`companies.legalForms.${id}`) }))} />
        <CheckboxGroup legend={t('companies.form.labels')} name={F.label} chosen={query.label} items={REGISTRY_LABEL_IDS.map((id) => ({ value: id, label: t(`companies.registryLabels.${id}`) }))} />
      </div>

      <div className="flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
          {/* A date input: the browser's date picker with JavaScript or without, its value YYYY-MM-DD in the URL. */}
          <Field
            className="sm:w-56"
            label={t('companies.form.createdAfter')}
            hint={t('companies.form.createdAfterHint')}
            errors={errors.createdAfter ? [errors.createdAfter] : undefined}
            inputProps={{ type: 'date', name: F.createdAfter, defaultValue: query.createdAfter, id: 'companies-created-after' }}
          />
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
            <input type="checkbox" name={F.activeOnly} value="1" defaultChecked={query.activeOnly} className={checkboxClasses} />
            {t('companies.form.activeOnly')}
          </label>
        </div>
        <Button type="submit" name={F.run} value="1" pending={pending} className="min-w-32">
          {pending ? t('search.searching') : t('search.search')}
        </Button>
      </div>
    </Form>
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
