import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, useSearchParams } from 'react-router'
import type { CategoryOption } from '#app/domain/categories.ts'
import { hasSectorOrLocation, levelAvailable, LOCATION_LEVELS, parentLevel, withLevel, type LevelsWithData, type LocationLevel, type SearchCriteria } from '#app/domain/search.ts'
import { PickerCombobox, useComboboxReady } from '#app/utils/lazy-combobox.tsx'
import { cn } from '#app/utils/misc.ts'
import { changedFields, useTypedBeforeHydration, type TypedValues } from '#app/utils/typed-before-hydration.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'
import type { PickerOption } from './picker-combobox.tsx'
import { filterCategoryOptions, filterLocations, useCategoryOptions, useKnownLocationLevels, useLocationOptions, type LocationOption } from './use-picker-options.ts'

export interface ServerPickerOptions {
  country: LocationOption[]
  region: LocationOption[]
  department: LocationOption[]
  city: LocationOption[]
  /** The server's view of which levels have data for this country and region. */
  levels: { country: string; region: string; withData: LevelsWithData }
}

/** The hint of a level that waits for its parent (see parentLevel), by that parent. */
const PARENT_HINT: Record<Exclude<LocationLevel, 'city'>, string> = {
  country: 'search.needCountry',
  region: 'search.needRegion',
  department: 'search.needDepartment',
}

function parentHint(level: LocationLevel, levels: LevelsWithData): string | null {
  const parent = parentLevel(level, levels)
  return parent === null || parent === 'city' ? null : PARENT_HINT[parent]
}

const SELECT_PLACEHOLDER: Record<LocationLevel, string> = {
  country: 'search.selectCountry',
  region: 'search.selectRegion',
  department: 'search.selectDepartment',
  city: 'search.anyCity',
}

/**
 * The search form: a GET form, so the URL holds the search and the results render server-side.
 * Without JavaScript the pickers are server-rendered selects (a "load the next level" submit
 * fills the next one) and the category is free text; with JavaScript they become comboboxes.
 */
export function SearchForm({
  criteria,
  onCriteriaChange,
  categoryLabel,
  categories,
  serverOptions,
  onSubmit,
  pending,
  filters,
  locationError,
}: {
  criteria: SearchCriteria
  onCriteriaChange: (criteria: SearchCriteria, label?: string) => void
  categoryLabel: string
  categories: Array<Pick<CategoryOption, 'id' | 'label'>>
  serverOptions: ServerPickerOptions
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void
  /** More fields of the same GET form, below the pickers (the search filters). */
  filters?: React.ReactNode
  pending: boolean
  /** The server's refusal of the location sent (unknown place, country code not the country's), shown in the form. */
  locationError?: string
}) {
  const { i18n } = useTranslation()
  const canSubmit = hasSectorOrLocation(criteria)
  // Which levels have data: what the pickers loaded, else what the server said for this country and region.
  const known = useKnownLocationLevels(criteria, i18n.language)
  const server = serverOptions.levels
  const levels = server.country === criteria.country && server.region === criteria.region ? { ...server.withData, ...known } : known
  // What was typed into the no-JS inputs while the scripts loaded moves into the comboboxes: at hydration, and
  // again as the comboboxes replace them (their chunk arrives after hydration).
  const restoreTyped = (typed: TypedValues) => {
    let next = criteria
    let label: string | undefined
    const sector = typed.get('sector')?.[0]?.trim()
    if (sector !== undefined) {
      const known = categories.find((category) => category.label.toLowerCase() === sector.toLowerCase())
      next = { ...next, sector: known?.id ?? sector }
      label = known?.label ?? sector
    }
    for (const level of LOCATION_LEVELS) {
      const value = typed.get(level)?.[0]
      if (value !== undefined) next = withLevel(next, level, value)
    }
    onCriteriaChange(next, label)
  }
  const formRef = useTypedBeforeHydration(restoreTyped)
  // Without JavaScript "Load the next level" reloads the page: the keyboard lands on the level it loaded (the first
  // one now offered and still empty), not back at the top of the page.
  const [searchParams] = useSearchParams()
  const loadedLevel = searchParams.get('refine') === '1' ? LOCATION_LEVELS.find((level) => !criteria[level] && levelAvailable(level, criteria, levels)) : undefined
  // Hydrated and the combobox chunk loaded (app/utils/lazy-combobox.tsx: on the first interaction); until then the no-JS pickers.
  const hydrated = useComboboxReady(formRef, () => {
    const typed = formRef.current ? changedFields(formRef.current) : new Map()
    if (typed.size) restoreTyped(typed)
  })
  return (
    <Form ref={formRef} method="get" action="/" onSubmit={onSubmit} data-pickers={hydrated ? 'enhanced' : 'native'} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6" aria-describedby={!canSubmit ? 'search-requirement' : undefined}>
      {/* The category has its own row: five pickers in one row left each too narrow for its placeholder. */}
      <div className="grid items-start gap-5 md:grid-cols-2 xl:grid-cols-4">
        <div className="md:col-span-2 xl:col-span-4">
          {hydrated ? (
            <CategoryPicker criteria={criteria} label={categoryLabel} onChange={(sector, label) => onCriteriaChange({ ...criteria, sector }, label)} />
          ) : (
            <NoJsCategoryInput value={categoryLabel} categories={categories} />
          )}
        </div>
        {LOCATION_LEVELS.map((level) =>
          hydrated ? (
            <LocationPicker key={level} level={level} criteria={criteria} levels={levels} onChange={(value) => onCriteriaChange(withLevel(criteria, level, value))} />
          ) : (
            <NoJsLocationSelect key={level} level={level} criteria={criteria} levels={levels} options={serverOptions[level]} autoFocus={level === loadedLevel} />
          ),
        )}
      </div>
      {locationError ? (
        <Alert tone="error" id="search-location-error" className="mt-5">
          {locationError}
        </Alert>
      ) : null}
      {filters}
      <SearchFormActions canSubmit={canSubmit} hydrated={hydrated} pending={pending} />
    </Form>
  )
}

/** The requirement or preview note, then the submit (and, without JavaScript, the next level's loader). */
function SearchFormActions({ canSubmit, hydrated, pending }: { canSubmit: boolean; hydrated: boolean; pending: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="mt-5 flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
      {/* Guidance, not an error: nothing is wrong before the user has done anything (the server names real errors). */}
      <p id="search-requirement" className={cn('text-sm', canSubmit ? 'text-slate-500' : 'text-slate-600')} role={canSubmit ? undefined : 'status'}>
        {canSubmit ? t('search.previewNote') : t('search.errors.sectorOrLocation')}
      </p>
      <div className="flex gap-3">
        {!hydrated ? (
          <Button type="submit" name="refine" value="1" variant="secondary">
            {t('search.loadNext')}
          </Button>
        ) : null}
        {/* Without JavaScript the server checks the rule and answers with the message instead. */}
        <Button type="submit" name="run" value="1" disabled={hydrated && !canSubmit} pending={pending} className="min-w-32">
          {pending ? t('search.searching') : t('search.search')}
        </Button>
      </div>
    </div>
  )
}

function NoJsCategoryInput({ value, categories }: { value: string; categories: Array<Pick<CategoryOption, 'id' | 'label'>> }) {
  const { t } = useTranslation()
  return (
    <div>
      <label htmlFor="search-sector" className="block text-sm font-medium text-slate-700">
        {t('search.category')}
      </label>
      <input
        id="search-sector"
        name="sector"
        type="text"
        list="category-options"
        defaultValue={value}
        placeholder={t('search.categoryPlaceholder')}
        aria-describedby="search-sector-hint"
        maxLength={200}
        className="mt-1.5 block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none"
      />
      <datalist id="category-options">
        {categories.map((category) => (
          <option key={category.id} value={category.label} />
        ))}
      </datalist>
      <p id="search-sector-hint" className="mt-1.5 text-xs text-slate-500">
        {t('search.categoryHintNoJs')}
      </p>
    </div>
  )
}

function NoJsLocationSelect({
  level,
  criteria,
  levels,
  options,
  autoFocus,
}: {
  level: LocationLevel
  criteria: SearchCriteria
  levels: LevelsWithData
  options: LocationOption[]
  autoFocus: boolean
}) {
  const { t } = useTranslation()
  const disabled = !levelAvailable(level, criteria, levels)
  const parentKey = parentHint(level, levels)
  const id = `search-${level}`
  const value = criteria[level]
  const hasValue = options.some((option) => option.name === value)
  const noData = !disabled && (level === 'region' || level === 'department') && options.length === 0
  const hint = disabled && parentKey ? t(parentKey) : noData ? t('searchLevels.noData') : null
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {t(`search.${level}`)}
      </label>
      <select
        id={id}
        name={level}
        defaultValue={value}
        disabled={disabled}
        // Rendered as the HTML attribute by the server: the browser focuses it on load, no script needed (the user asked
        // for this level with "Load the next level").
        autoFocus={autoFocus}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-400"
      >
        <option value="">{t(SELECT_PLACEHOLDER[level])}</option>
        {value && !hasValue ? <option value={value}>{value}</option> : null}
        {options.map((option) => (
          <option key={option.code ?? option.name} value={option.name}>
            {option.name}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

function CategoryPicker({ criteria, label, onChange }: { criteria: SearchCriteria; label: string; onChange: (sector: string, label: string) => void }) {
  const { t, i18n } = useTranslation()
  const [query, setQuery] = useState('')
  const categories = useCategoryOptions(i18n.language)
  const { items, tooMany, exact } = filterCategoryOptions(categories.items, query)
  const options: PickerOption[] = items.map((item) => ({ value: item.value, label: item.label }))
  const text = query.trim()
  // Text naming a category exactly (label or term, either language) is that category on the server too.
  if (text && !(exact && items.includes(exact))) {
    options.push({ value: text, label: t('search.useCustom', { text }), custom: true })
  }
  const status =
    categories.status === 'loading'
      ? t('search.loadingCategories')
      : text && items.length === 0
        ? `${t('search.noCategory')} ${t('search.customHint')}`
        : null
  return (
    <PickerCombobox
      id="search-sector"
      label={t('search.category')}
      name="sector"
      value={criteria.sector}
      displayValue={label}
      options={options}
      onQueryChange={setQuery}
      onChange={(option) => onChange(option?.value ?? '', option ? (option.custom ? option.value : option.label) : '')}
      placeholder={t('search.categoryPlaceholder')}
      status={status}
      footer={tooMany ? t('search.tooManyCategories') : null}
    />
  )
}

function LocationPicker({ level, criteria, levels, onChange }: { level: LocationLevel; criteria: SearchCriteria; levels: LevelsWithData; onChange: (value: string) => void }) {
  const { t, i18n } = useTranslation()
  const [query, setQuery] = useState('')
  // A level waits for its parent, or its grandparent when the parent has no data (Germany: cities after the region).
  const enabled = levelAvailable(level, criteria, levels)
  const parentKey = parentHint(level, levels)
  const state = useLocationOptions({
    type: level,
    countryName: criteria.country || undefined,
    regionName: level === 'department' || level === 'city' ? criteria.region || undefined : undefined,
    departmentName: level === 'city' ? criteria.department || undefined : undefined,
    lang: i18n.language,
    enabled,
    query,
  })
  const items = level === 'city' ? state.items : filterLocations(state.items, query)
  // A region or department list that loaded empty: the plan rules do not require that level.
  const noData = enabled && (level === 'region' || level === 'department') && state.status === 'ready' && state.items.length === 0
  const status = !enabled
    ? t(parentKey ?? 'search.needCountry')
    : state.status === 'loading' && !items.length
      ? t('search.loading')
      : state.status === 'error'
        ? state.message || t('common.error')
        : state.status === 'ready' && !items.length
          ? t('search.noLocations')
          : null
  return (
    <PickerCombobox
      id={`search-${level}`}
      label={t(`search.${level}`)}
      name={level}
      value={criteria[level]}
      displayValue={criteria[level]}
      options={items.map((item) => ({ value: item.name, label: item.name }))}
      onQueryChange={setQuery}
      onChange={(option) => onChange(option?.value ?? '')}
      disabled={!enabled}
      placeholder={t(SELECT_PLACEHOLDER[level])}
      // The "select the parent first" text is too long for a placeholder in a narrow column.
      hint={!enabled ? t(parentKey ?? 'search.needCountry') : noData ? t('searchLevels.noData') : undefined}
      status={status}
    />
  )
}
