import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { LIST_MAX_FILE_BYTES, LIST_MAX_ROWS } from '#app/domain/list-columns.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'

/** The file input of /lists/new: a plain multipart form, the same with and without JavaScript. */
export function ListUploadForm({ error }: { error?: string }) {
  const { t, i18n } = useTranslation()
  const pending = useIsPending()
  const format = (value: number) => numberFormat(i18n.language).format(value)
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4" aria-describedby={error ? 'list-upload-error' : undefined}>
      {error ? (
        <Alert tone="error">
          <span id="list-upload-error" data-testid="list-upload-error">
            {error}
          </span>
        </Alert>
      ) : null}
      <div>
        <label htmlFor="list-file" className="block text-sm font-medium text-slate-700">
          {t('lists.upload.fileLabel')}
        </label>
        <p id="list-file-hint" className="mt-1 text-sm text-slate-500">
          {t('lists.upload.fileHint', { rows: format(LIST_MAX_ROWS), megabytes: format(LIST_MAX_FILE_BYTES / 1024 / 1024) })}
        </p>
        <input
          id="list-file"
          name="file"
          type="file"
          required
          accept=".csv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-describedby="list-file-hint"
          className="mt-3 block w-full rounded-xl border border-dashed border-slate-300 bg-slate-50 p-4 text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-600 file:px-3 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        />
      </div>
      <Button type="submit" pending={pending} data-testid="list-upload-submit">
        {t('lists.upload.submit')}
      </Button>
    </Form>
  )
}

/** What a row needs to be matched, in the order the match tries it. */
export function ListColumnsHelp() {
  const { t } = useTranslation()
  return (
    <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-sm font-semibold text-slate-900">{t('lists.upload.helpTitle')}</h2>
      <ol className="mt-3 space-y-2 text-sm text-slate-600">
        {(['ids', 'website', 'name'] as const).map((key, i) => (
          <li key={key} className="flex gap-3">
            <span aria-hidden="true" className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-700">
              {i + 1}
            </span>
            <span>{t(`lists.upload.help.${key}`)}</span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-xs text-slate-500">{t('lists.upload.helpPay')}</p>
    </div>
  )
}
