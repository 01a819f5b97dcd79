import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LocationLevel } from '#app/domain/search.ts'
import { PickerCombobox } from '#app/utils/lazy-combobox.tsx'
import { cn } from '#app/utils/misc.ts'
import type { PickerOption } from './picker-combobox.tsx'
import { filterCategoryOptions, filterLocations, useCategoryOptions, useLocationOptions } from './use-picker-options.ts'

/*
 * The place and category pickers of the search page and of /companies: a combobox with JavaScript (rendered once
 * useComboboxReady() is true), a server-rendered select or text input of the same name without. They know nothing of
 * the page's form state: a value, its options and a change handler.
 */

const fieldClasses =
  'mt-1.5 block w-full rounded-lg border-0 bg-white text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-invalid:ring-red-400'

/** The hint and the error under a field, and the ids the field names in aria-describedby. */
function FieldNotes({ id, hint, error }: { id: string; hint?: string | null; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </>
  )
}

function describedBy(id: string, hint?: string | null, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
}

/** Without JavaScript: free text (a category, an activity, a postcode), the known values suggested by the browser. */
export function NoJsTextInput({ id, name, label, value, suggestions, placeholder, hint, error }: { id: string; name: string; label: string; value: string; suggestions?: string[]; placeholder?: string; hint?: string; error?: string }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        list={suggestions ? `${id}-options` : undefined}
        defaultValue={value}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        maxLength={200}
        autoComplete="off"
        className={cn(fieldClasses, 'px-3 py-2')}
      />
      {suggestions ? (
        <datalist id={`${id}-options`}>
          {suggestions.map((text) => (
            <option key={text} value={text} />
          ))}
        </datalist>
      ) : null}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  )
}

/** Without JavaScript: a server-rendered select of one level's places (names), a value sent that is not listed kept. */
export function NoJsLocationSelect({
  id,
  name,
  label,
  value,
  options,
  placeholder,
  disabled = false,
  hint,
  error,
  autoFocus = false,
}: {
  id: string
  name: string
  label: string
  value: string
  options: Array<{ name: string; code?: string }>
  placeholder: string
  disabled?: boolean
  hint?: string | null
  error?: string
  autoFocus?: boolean
}) {
  const hasValue = options.some((option) => option.name === value)
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        disabled={disabled}
        // Rendered as the HTML attribute by the server: the browser focuses it on load, no script needed (the user asked
        // for this level with "Load the next level").
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={cn(fieldClasses, 'py-2 pr-8 pl-3 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-400')}
      >
        <option value="">{placeholder}</option>
        {value && !hasValue ? <option value={value}>{value}</option> : null}
        {options.map((option) => (
          <option key={option.code ?? option.name} value={option.name}>
            {option.name}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  )
}

/**
 * The category combobox: the categories of the interface's language, matched on both languages' labels and terms.
 * With `allowCustom`, text naming no category can be sent as typed (the search page's free-text sector).
 */
export function CategoryPicker({
  id,
  name,
  label,
  value,
  displayValue,
  onChange,
  placeholder,
  allowCustom = true,
  hint,
  error,
}: {
  id: string
  name: string
  label: string
  value: string
  displayValue: string
  onChange: (value: string, label: string) => void
  placeholder?: string
  allowCustom?: boolean
  hint?: string
  error?: string
}) {
  const { t, i18n } = useTranslation()
  const [query, setQuery] = useState('')
  const categories = useCategoryOptions(i18n.language)
  const { items, tooMany, exact } = filterCategoryOptions(categories.items, query)
  const options: PickerOption[] = items.map((item) => ({ value: item.value, label: item.label }))
  const text = query.trim()
  // Text naming a category exactly (label or term, either language) is that category on the server too.
  if (allowCustom && text && !(exact && items.includes(exact))) {
    options.push({ value: text, label: t('search.useCustom', { text }), custom: true })
  }
  const status =
    categories.status === 'loading'
      ? t('search.loadingCategories')
      : text && items.length === 0
        ? allowCustom
          ? `${t('search.noCategory')} ${t('search.customHint')}`
          : t('search.noCategory')
        : null
  return (
    <PickerCombobox
      id={id}
      label={label}
      name={name}
      value={value}
      displayValue={displayValue}
      options={options}
      onQueryChange={setQuery}
      onChange={(option) => onChange(option?.value ?? '', option ? (option.custom ? option.value : option.label) : '')}
      placeholder={placeholder}
      status={status}
      footer={tooMany ? t('search.tooManyCategories') : null}
      hint={hint}
      error={error}
    />
  )
}

/** Where a level's places are listed: the names of the places above it (the /api/locations parameters). */
export interface LocationParents {
  countryName?: string
  regionName?: string
  departmentName?: string
}

/**
 * One location level's combobox, its places loaded from /api/locations once `enabled` (the parents are chosen).
 * `disabledText` says what to choose first. With `allowTyped` (a postcode on /companies) what is typed can be sent as
 * is, and the field stays usable before its list can load (`listed` false).
 */
export function LocationPicker({
  id,
  name,
  level,
  label,
  value,
  parents,
  enabled,
  listed = enabled,
  disabledText,
  placeholder,
  allowTyped = false,
  hint,
  error,
  onChange,
}: {
  id: string
  name: string
  level: LocationLevel
  label: string
  value: string
  parents: LocationParents
  enabled: boolean
  listed?: boolean
  disabledText: string
  placeholder: string
  allowTyped?: boolean
  hint?: string
  error?: string
  onChange: (value: string) => void
}) {
  const { t, i18n } = useTranslation()
  const [query, setQuery] = useState('')
  const state = useLocationOptions({ type: level, ...parents, lang: i18n.language, enabled: enabled && listed, query })
  const items = level === 'city' ? state.items : filterLocations(state.items, query)
  // A region or department list that loaded empty: the plan rules do not require that level.
  const noData = enabled && (level === 'region' || level === 'department') && state.status === 'ready' && state.items.length === 0
  const options: PickerOption[] = items.map((item) => ({ value: item.name, label: item.name }))
  const text = query.trim()
  const typed = allowTyped && text !== '' && !items.some((item) => item.name.toLowerCase() === text.toLowerCase())
  if (typed) options.push({ value: text, label: t('search.useCustom', { text }), custom: true })
  const status = !enabled
    ? disabledText
    : !listed
      ? null
      : state.status === 'loading' && !items.length
        ? t('search.loading')
        : state.status === 'error'
          ? state.message || t('common.error')
          : state.status === 'ready' && !items.length && !typed
            ? t('search.noLocations')
            : null
  return (
    <PickerCombobox
      id={id}
      label={label}
      name={name}
      value={value}
      displayValue={value}
      options={options}
      onQueryChange={setQuery}
      onChange={(option) => onChange(option?.value ?? '')}
      disabled={!enabled}
      placeholder={placeholder}
      // The "select the parent first" text is too long for a placeholder in a narrow column.
      hint={!enabled ? disabledText : noData ? t('searchLevels.noData') : hint}
      status={status}
      error={error}
    />
  )
}
