import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LocationLevel } from '#app/domain/search.ts'
import { PickerCombobox, type PickerOption } from './combobox.tsx'
import { filterCategoryOptions, filterLocations, useCategoryOptions, useLocationOptions } from './use-picker-options.ts'

/*
 * The category and place comboboxes of the search page and of /companies, in the chunk fetched on the first
 * interaction with the form (app/utils/lazy-combobox.tsx; no-js-pickers.tsx until then). They know nothing of the
 * page's form state: a value, where its options come from, and a change handler.
 */

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
interface LocationParents {
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
