import { useTranslation } from 'react-i18next'
import { Alert } from '#app/components/ui/alert.tsx'
import type { DncImportIssue, DncImportReport } from '#app/domain/dnc-import.ts'

const COUNTS = ['added', 'alreadyListed', 'duplicates', 'rejected'] as const

/** One line with a problem: where it is (line, column) and why, in the user's language. */
function IssueText({ issue }: { issue: DncImportIssue }) {
  const { t } = useTranslation()
  const where = issue.column ? t('doNotContact.report.lineColumn', { line: issue.line, column: issue.column }) : t('doNotContact.report.line', { line: issue.line })
  return (
    <>
      <span className="font-medium">{where}</span> {t(`doNotContact.report.reasons.${issue.reason}`, { value: issue.value ?? '' })}
      {issue.partial ? ` ${t('doNotContact.report.partial')}` : null}
    </>
  )
}

/** The counts, the columns read and the lines that were not (fully) read. */
export function ImportReportDetails({ report }: { report: DncImportReport }) {
  const { t, i18n } = useTranslation()
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <div className="mt-2 space-y-2" data-testid="dnc-import-report">
      {report.columns.length ? <p data-testid="dnc-report-columns">{t('doNotContact.report.columnsRead', { columns: report.columns.join(', ') })}</p> : null}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        {COUNTS.map((count) => (
          <div key={count}>
            <dt className="text-xs">{t(`doNotContact.report.${count}`)}</dt>
            <dd className="font-semibold tabular-nums" data-testid={`dnc-report-${count}`}>
              {number.format(report[count])}
            </dd>
          </div>
        ))}
      </dl>
      {report.issues.length ? (
        <>
          <p>{t('doNotContact.report.issuesTitle')}</p>
          <ul className="list-inside list-disc break-words" data-testid="dnc-report-issues">
            {report.issues.map((issue) => (
              <li key={issue.line} data-line={issue.line}>
                <IssueText issue={issue} />
              </li>
            ))}
          </ul>
          {report.issuesLeftOut ? <p>{t('doNotContact.report.more', { count: report.issuesLeftOut, formatted: number.format(report.issuesLeftOut) })}</p> : null}
        </>
      ) : null}
    </div>
  )
}

/** An import that read entries (added, or already listed): what it did. */
export function ImportReport({ report }: { report: DncImportReport }) {
  const { t } = useTranslation()
  return (
    <Alert tone={report.rejected ? 'warning' : 'success'} title={t('doNotContact.report.title')}>
      <ImportReportDetails report={report} />
    </Alert>
  )
}
