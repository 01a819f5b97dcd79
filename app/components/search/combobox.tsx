import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '#app/utils/misc.ts'
import { Icon } from '../layout/icons.tsx'

export interface PickerOption {
  value: string
  label: string
  /** Rendered differently: the 'Use "{text}"' entry of the category picker. */
  custom?: boolean
}

/**
 * The JavaScript version of a search picker (Headless UI Combobox). The no-JS version is a
 * server-rendered <select> / text input with the same name, so the GET form works either way.
 */
export function PickerCombobox({
  id,
  label,
  name,
  value,
  displayValue,
  options,
  onQueryChange,
  onChange,
  disabled = false,
  placeholder,
  status,
  footer,
  hint,
  error,
}: {
  id?: string
  label: string
  name: string
  value: string
  displayValue: string
  options: PickerOption[]
  onQueryChange: (query: string) => void
  onChange: (option: PickerOption | null) => void
  disabled?: boolean
  placeholder?: string
  /** Shown instead of / above options: loading, empty, error, "select the parent first". */
  status?: React.ReactNode
  footer?: React.ReactNode
  /** Helper text under the field (e.g. why it is disabled), kept out of the narrow placeholder. */
  hint?: string
  /** The server's refusal of the value sent, under the field. */
  error?: string
}) {
  const fallbackId = useId()
  const inputId = id ?? fallbackId
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const [, setQuery] = useState('')
  const selected = value ? ({ value, label: displayValue } satisfies PickerOption) : null
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input type="hidden" name={name} value={value} />
      <Combobox
        value={selected}
        onChange={(option: PickerOption | null) => {
          onChange(option)
          setQuery('')
        }}
        by="value"
        disabled={disabled}
        immediate
        onClose={() => setQuery('')}
      >
        <PickerInput
          inputId={inputId}
          label={label}
          placeholder={placeholder}
          describedBy={[hintId, errorId].filter(Boolean).join(' ') || undefined}
          invalid={Boolean(error)}
          onQueryChange={(query) => {
            setQuery(query)
            onQueryChange(query)
          }}
        />
        <PickerOptionList options={options} status={status} footer={footer} />
      </Combobox>
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

function PickerInput({
  inputId,
  label,
  placeholder,
  describedBy,
  invalid,
  onQueryChange,
}: {
  inputId: string
  label: string
  placeholder?: string
  describedBy?: string
  invalid: boolean
  onQueryChange: (query: string) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="relative mt-1.5">
      <ComboboxInput
        id={inputId}
        autoComplete="off"
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        displayValue={(option: PickerOption | null) => option?.label ?? ''}
        onChange={(event) => onQueryChange(event.target.value)}
        className="block w-full rounded-lg border-0 bg-white py-2 pr-10 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-invalid:ring-red-400 data-disabled:cursor-not-allowed data-disabled:bg-slate-50 data-disabled:text-slate-400"
      />
      <ComboboxButton aria-label={t('search.showOptions', { field: label })} className="absolute inset-y-0 right-0 flex items-center rounded-r-lg px-2 text-slate-400 data-disabled:cursor-not-allowed">
        <Icon name="chevronDown" className="size-5" />
      </ComboboxButton>
    </div>
  )
}

function PickerOptionList({ options, status, footer }: { options: PickerOption[]; status?: React.ReactNode; footer?: React.ReactNode }) {
  return (
    <ComboboxOptions
      anchor="bottom start"
      modal={false}
      className="z-50 mt-1 max-h-72 w-(--input-width) overflow-auto rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-900/10 [--anchor-gap:4px] empty:invisible"
    >
      {status ? <div className="px-3 py-2 text-slate-500">{status}</div> : null}
      {options.map((option) => (
        <ComboboxOption
          // A custom entry can carry the same value as a listed one: the prefix keeps the keys apart.
          key={`${option.custom ? 'custom:' : ''}${option.value}`}
          value={option}
          className={cn('cursor-pointer px-3 py-2 text-slate-700 select-none data-focus:bg-brand-50 data-focus:text-brand-700 data-selected:font-medium', option.custom && 'italic')}
        >
          {option.label}
        </ComboboxOption>
      ))}
      {footer ? <div className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">{footer}</div> : null}
    </ComboboxOptions>
  )
}
