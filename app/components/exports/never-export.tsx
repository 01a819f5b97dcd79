import { useTranslation } from 'react-i18next'
import { Form, useLocation, useSearchParams } from 'react-router'
import { Icon } from '#app/components/layout/icons.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { DNC_PATH } from '#app/domain/do-not-contact.ts'
import type { ExportLeadView } from '#app/domain/lead-view.ts'
import { cn } from '#app/utils/misc.ts'

/**
 * "Never export this business": one quiet icon button per lead (its name in the accessible label and the tooltip), not
 * a line of text under every name. A <details> holds the confirmation and its form, so it opens, confirms and posts
 * the same without JavaScript. The do-not-contact page adds the entry and brings the user back here.
 */
export function NeverExportAction({ lead, className }: { lead: ExportLeadView; className?: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  const returnTo = `${location.pathname}${location.search.replace(/[?&]neverExport=1/, '').replace(/^&/, '?')}`
  const label = t('exports.detail.neverExportLabel', { name: lead.name })
  return (
    <details className={cn('group relative text-xs font-normal', className)} data-testid="never-export">
      <summary
        aria-label={label}
        title={label}
        className="inline-flex size-8 cursor-pointer list-none items-center justify-center rounded-lg text-slate-400 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 group-open:bg-red-50 group-open:text-red-700 [&::-webkit-details-marker]:hidden"
      >
        <Icon name="ban" className="size-4" />
      </summary>
      <Form method="post" action={DNC_PATH} className="absolute right-0 z-20 mt-1 w-64 space-y-2 rounded-lg bg-white p-3 text-left whitespace-normal shadow-lg ring-1 ring-red-200">
        <input type="hidden" name="intent" value="add-business" />
        <input type="hidden" name="value" value={lead.businessRef} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <p className="font-semibold text-slate-900">{t('exports.detail.neverExport')}</p>
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
