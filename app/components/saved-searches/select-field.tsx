import { getSelectProps, type FieldMetadata } from '@conform-to/react'

/** A labelled native select (works without JavaScript), styled like the inputs, with its hint and errors. */
export function SelectField({ label, hint, field, errors, options }: { label: string; hint?: string; field: FieldMetadata<unknown>; errors?: string[]; options: Array<[string, string]> }) {
  const hintId = `${field.id}-hint`
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        {...getSelectProps(field)}
        aria-describedby={[errors?.length ? field.errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined}
        className="mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:ring-red-400"
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={hintId} className="mt-1.5 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={field.errorId} className="mt-1.5 text-sm text-red-600">
          {errors.join(' ')}
        </p>
      ) : null}
    </div>
  )
}
