import { useTranslation } from 'react-i18next'
import { Form, useSearchParams } from 'react-router'
import type { CategoryOption } from '#app/domain/categories.ts'
import { hasSectorOrLocation, levelAvailable, LOCATION_LEVELS, parentLevel, withLevel, type LevelsWithData, type LocationLevel, type SearchCriteria } from '#app/domain/search.ts'
import { CategoryPicker, LocationPicker, useComboboxReady, useKnownLocationLevels } from '#app/utils/lazy-combobox.tsx'
import { cn } from '#app/utils/misc.ts'
import { changedFields, useTypedBeforeHydration, type TypedValues } from '#app/utils/typed-before-hydration.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'
import { NoJsLocationSelect, NoJsTextInput } from './no-js-pickers.tsx'
import type { LocationOption } from './use-picker-options.ts'

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
  // Hydrated and the combobox chunk loaded (app/utils/lazy-combobox.tsx: on the first interaction); until then the no-JS pickers.
  const hydrated = useComboboxReady(formRef, () => {
    const typed = formRef.current ? changedFields(formRef.current) : new Map()
    if (typed.size) restoreTyped(typed)
  })
  // Which levels have data: what the pickers loaded, else what the server said for this country and region.
  const known = useKnownLocationLevels(criteria, i18n.language, hydrated)
  const server = serverOptions.levels
  const levels = server.country === criteria.country && server.region === criteria.region ? { ...server.withData, ...known } : known
  // Without JavaScript "Load the next level" reloads the page: the keyboard lands on the level it loaded (the first
  // one now offered and still empty), not back at the top of the page.
  const [searchParams] = useSearchParams()
  const loadedLevel = searchParams.get('refine') === '1' ? LOCATION_LEVELS.find((level) => !criteria[level] && levelAvailable(level, criteria, levels)) : undefined
  return (
    <Form ref={formRef} method="get" action="/" onSubmit={onSubmit} data-pickers={hydrated ? 'enhanced' : 'native'} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6" aria-describedby={!canSubmit ? 'search-requirement' : undefined}>
      {/* The category has its own row: five pickers in one row left each too narrow for its placeholder. */}
      <div className="grid items-start gap-5 md:grid-cols-2 xl:grid-cols-4">
        <div className="md:col-span-2 xl:col-span-4">
          <SearchCategoryField hydrated={hydrated} criteria={criteria} categoryLabel={categoryLabel} categories={categories} onCriteriaChange={onCriteriaChange} />
        </div>
        {LOCATION_LEVELS.map((level) => (
          <SearchLocationField key={level} level={level} criteria={criteria} levels={levels} hydrated={hydrated} options={serverOptions[level]} autoFocus={level === loadedLevel} onCriteriaChange={onCriteriaChange} />
        ))}
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

/** One level of the place: its combobox, or without JavaScript the server's select of its places. */
function SearchLocationField({
  level,
  criteria,
  levels,
  hydrated,
  options,
  autoFocus,
  onCriteriaChange,
}: {
  level: LocationLevel
  criteria: SearchCriteria
  levels: LevelsWithData
  hydrated: boolean
  options: LocationOption[]
  autoFocus: boolean
  onCriteriaChange: (criteria: SearchCriteria) => void
}) {
  const { t } = useTranslation()
  const enabled = levelAvailable(level, criteria, levels)
  const parentKey = parentHint(level, levels)
  const common = { id: `search-${level}`, name: level, label: t(`search.${level}`), value: criteria[level], placeholder: t(SELECT_PLACEHOLDER[level]) }
  if (hydrated) {
    // A level waits for its parent, or its grandparent when the parent has no data (Germany: cities after the region).
    const parents = {
      countryName: criteria.country || undefined,
      regionName: level === 'department' || level === 'city' ? criteria.region || undefined : undefined,
      departmentName: level === 'city' ? criteria.department || undefined : undefined,
    }
    return <LocationPicker {...common} level={level} parents={parents} enabled={enabled} disabledText={t(parentKey ?? 'search.needCountry')} onChange={(value) => onCriteriaChange(withLevel(criteria, level, value))} />
  }
  const noData = enabled && (level === 'region' || level === 'department') && options.length === 0
  const hint = !enabled && parentKey ? t(parentKey) : noData ? t('searchLevels.noData') : null
  return <NoJsLocationSelect {...common} options={options} disabled={!enabled} hint={hint} autoFocus={autoFocus} />
}

/** The category: its combobox, or without JavaScript free text with the categories suggested. */
function SearchCategoryField({
  hydrated,
  criteria,
  categoryLabel,
  categories,
  onCriteriaChange,
}: {
  hydrated: boolean
  criteria: SearchCriteria
  categoryLabel: string
  categories: Array<Pick<CategoryOption, 'id' | 'label'>>
  onCriteriaChange: (criteria: SearchCriteria, label?: string) => void
}) {
  const { t } = useTranslation()
  return hydrated ? (
    <CategoryPicker
      id="search-sector"
      name="sector"
      label={t('search.category')}
      value={criteria.sector}
      displayValue={categoryLabel}
      placeholder={t('search.categoryPlaceholder')}
      onChange={(sector, label) => onCriteriaChange({ ...criteria, sector }, label)}
    />
  ) : (
    <NoJsTextInput
      id="search-sector"
      name="sector"
      label={t('search.category')}
      value={categoryLabel}
      suggestions={categories.map((category) => category.label)}
      placeholder={t('search.categoryPlaceholder')}
      hint={t('search.categoryHintNoJs')}
    />
  )
}
