import { cn } from '#app/utils/misc.ts'

/*
 * The no-JavaScript pickers of the search page and of /companies: server-rendered text inputs and selects with the
 * same names as the comboboxes that replace them once the form is first touched (app/utils/lazy-combobox.tsx).
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
