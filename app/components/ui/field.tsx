import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn, useHydrated } from '#app/utils/misc.ts'

export type FieldErrors = Array<string | null | undefined> | null | undefined

function ErrorList({ id, errors }: { id?: string; errors?: FieldErrors }) {
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <ul id={id} className="mt-1.5 space-y-1">
      {list.map((error) => (
        <li key={error} className="text-sm text-red-600">
          {error}
        </li>
      ))}
    </ul>
  )
}

/** A native select styled as the inputs (a select keeps working without JavaScript); its width is the caller's. */
export const selectClasses =
  'block rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:ring-red-400'

const inputClasses =
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:ring-red-400'

export function Field({
  label,
  hint,
  errors,
  className,
  inputProps,
}: {
  label: React.ReactNode
  hint?: React.ReactNode
  errors?: FieldErrors
  className?: string
  inputProps: React.InputHTMLAttributes<HTMLInputElement>
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const hasErrors = Boolean(errors?.some(Boolean))
  const describedBy = [hasErrors ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1.5">
        <input {...inputProps} id={id} aria-invalid={hasErrors || undefined} aria-describedby={describedBy} className={cn(inputClasses, inputProps.className)} />
      </div>
      {hint ? (
        <p id={hintId} className="mt-1.5 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** A password field whose show/hide toggle appears once JavaScript runs (it cannot work without). */
export function PasswordField({ label, errors, inputProps, className }: { label: React.ReactNode; errors?: FieldErrors; inputProps: React.InputHTMLAttributes<HTMLInputElement>; className?: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [visible, setVisible] = useState(false)
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = `${id}-error`
  const hasErrors = Boolean(errors?.some(Boolean))
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative mt-1.5">
        <input
          {...inputProps}
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={hasErrors || undefined}
          aria-describedby={hasErrors ? errorId : undefined}
          className={cn(inputClasses, hydrated && 'pr-11')}
        />
        {/* Hidden until a script can drive it: React once hydrated, or the page's own script (app/islands/login-page.ts). */}
        <button
          type="button"
          hidden={!hydrated}
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={visible}
          aria-controls={id}
          data-password-toggle
          data-show-label={t('common.showPassword')}
          data-hide-label={t('common.hidePassword')}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-700"
        >
          <EyeIcon off={visible} />
        </button>
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

function EyeIcon({ off }: { off: boolean }) {
  return (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" className="size-5" aria-hidden="true">
      <path d="M1.5 10S4.5 4 10 4s8.5 6 8.5 6-3 6-8.5 6-8.5-6-8.5-6z" />
      <circle cx="10" cy="10" r="2.5" />
      <path d="M3 3l14 14" data-eye-off className={off ? undefined : 'hidden'} />
    </svg>
  )
}
