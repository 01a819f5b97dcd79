import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import type { DncImportReport } from '#app/domain/dnc-import.ts'
import { DNC_MAX_ENTRY_LENGTH } from '#app/domain/do-not-contact.ts'
import { ImportReport, ImportReportDetails } from './dnc-import-report.tsx'
import { useIsPending } from '#app/utils/misc.ts'

/** A refused command as the route answers it: the message, the lines it could not read, and what was sent. */
export interface DncFailure {
  message: string
  rejected: string[]
  sent: string
  /** A refused import's report (nothing in the file could be read: its lines and why). */
  report?: DncImportReport | null
}

function Rejected({ id, failure }: { id: string; failure: DncFailure }) {
  const { t } = useTranslation()
  return (
    <Alert tone="error" id={id}>
      <p>{failure.message}</p>
      {failure.rejected.length ? (
        <>
          <p className="mt-1">{t('doNotContact.errors.rejectedLines')}</p>
          <ul className="mt-1 list-inside list-disc break-all" data-testid="dnc-rejected">
            {failure.rejected.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : null}
      {failure.report ? <ImportReportDetails report={failure.report} /> : null}
    </Alert>
  )
}

export function AddEntryForm({ failure }: { failure?: DncFailure }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'add' })
  return (
    <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <input type="hidden" name="intent" value="add" />
      <Field
        className="flex-1"
        label={t('doNotContact.addLabel')}
        hint={t('doNotContact.addHint')}
        errors={failure ? [failure.message] : undefined}
        inputProps={{ id: 'dnc-value', name: 'value', type: 'text', required: true, maxLength: DNC_MAX_ENTRY_LENGTH, defaultValue: failure?.sent, placeholder: 'contact@exemple.fr' }}
      />
      <Button type="submit" pending={pending} className="sm:mt-7">
        {t('doNotContact.add')}
      </Button>
    </Form>
  )
}

export function PasteForm({ failure }: { failure?: DncFailure }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'paste' })
  return (
    <Form method="post" className="space-y-3 border-t border-slate-100 pt-6">
      <input type="hidden" name="intent" value="paste" />
      {failure ? <Rejected id="dnc-paste-error" failure={failure} /> : null}
      <label htmlFor="dnc-entries" className="block text-sm font-medium text-slate-700">
        {t('doNotContact.pasteLabel')}
      </label>
      <p id="dnc-entries-hint" className="text-sm text-slate-500">
        {t('doNotContact.pasteHint')}
      </p>
      <textarea
        id="dnc-entries"
        name="entries"
        rows={5}
        required
        defaultValue={failure?.sent}
        aria-invalid={failure ? true : undefined}
        aria-describedby={failure ? 'dnc-entries-hint dnc-paste-error' : 'dnc-entries-hint'}
        className="block w-full rounded-lg border-0 px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none focus:ring-inset aria-[invalid=true]:ring-red-400"
        placeholder={'boulangerie-martin.fr\n04 78 12 34 56\n552 100 554'}
      />
      <div className="flex justify-end">
        <Button type="submit" pending={pending}>
          {t('doNotContact.pasteSubmit')}
        </Button>
      </div>
    </Form>
  )
}

/** The file import; after one, its report (what was added, what was not and why) where the user acted. */
export function ImportForm({ failure, report }: { failure?: DncFailure; report?: DncImportReport }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'import' })
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-3 border-t border-slate-100 pt-6">
      <input type="hidden" name="intent" value="import" />
      {failure ? <Rejected id="dnc-import-error" failure={failure} /> : null}
      {report ? <ImportReport report={report} /> : null}
      <label htmlFor="dnc-file" className="block text-sm font-medium text-slate-700">
        {t('doNotContact.importLabel')}
      </label>
      <p id="dnc-file-hint" className="text-sm text-slate-500">
        {t('doNotContact.importHint')}
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <input
          id="dnc-file"
          name="file"
          type="file"
          required
          accept=".csv,.txt,text/csv,text/plain"
          aria-describedby={failure ? 'dnc-file-hint dnc-import-error' : 'dnc-file-hint'}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        />
        <Button type="submit" pending={pending} variant="secondary" className="shrink-0">
          {t('doNotContact.importSubmit')}
        </Button>
      </div>
    </Form>
  )
}
