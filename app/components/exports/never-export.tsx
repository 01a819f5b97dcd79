import { useTranslation } from 'react-i18next'
import { Form, useLocation, useSearchParams } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { DNC_PATH } from '#app/domain/do-not-contact.ts'
import type { ExportLeadView } from '#app/domain/lead-view.ts'

/**
 * "Never export this business" on a lead: a <details> holds the confirmation and its form, so it opens, confirms and
 * posts the same without JavaScript. The do-not-contact page adds the entry and brings the user back here.
 */
export function NeverExportAction({ lead }: { lead: ExportLeadView }) {
  const { t } = useTranslation()
  const location = useLocation()
  const returnTo = `${location.pathname}${location.search.replace(/[?&]neverExport=1/, '').replace(/^&/, '?')}`
  return (
    <details className="group mt-1 text-xs font-normal" data-testid="never-export">
      <summary className="inline-flex cursor-pointer list-none rounded text-slate-500 underline-offset-2 hover:text-red-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
        {t('exports.detail.neverExport')}
      </summary>
      <Form method="post" action={DNC_PATH} className="mt-2 max-w-64 space-y-2 rounded-lg bg-red-50 p-3 whitespace-normal ring-1 ring-red-200">
        <input type="hidden" name="intent" value="add-business" />
        <input type="hidden" name="value" value={lead.businessRef} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <p className="text-slate-700">{t('exports.detail.neverExportConfirm', { name: lead.name })}</p>
        <Button type="submit" size="sm" variant="danger">
          {t('exports.detail.neverExportSubmit')}
        </Button>
      </Form>
    </details>
  )
}

/** Said once, after the redirect back from the do-not-contact page. */
export function NeverExportNotice() {
  const { t } = useTranslation()
  const [searchParams] = useSearchParams()
  if (searchParams.get('neverExport') !== '1') return null
  return (
    <Alert tone="success">
      <span data-testid="never-export-notice">{t('exports.detail.neverExportDone')}</span>
    </Alert>
  )
}
