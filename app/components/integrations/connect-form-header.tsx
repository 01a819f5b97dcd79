import { Alert } from '../ui/alert.tsx'

/** The top of a connect form: its title and hint, the form's own errors, and the intent its submit carries. */
export function ConnectFormHeader({ title, hint, errors, errorId, intent }: { title: string; hint: string; errors?: string[]; errorId: string; intent: string }) {
  return (
    <>
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <p className="mt-1 text-sm text-slate-600">{hint}</p>
      </div>
      {errors?.length ? (
        <Alert tone="error" id={errorId}>
          {errors.join(' ')}
        </Alert>
      ) : null}
      <input type="hidden" name="intent" value={intent} />
    </>
  )
}
