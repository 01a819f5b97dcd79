import { useTranslation } from 'react-i18next'
import { CSV_SEPARATORS, defaultCsvSeparator } from '#app/domain/csv-format.ts'
import { Icon } from '../layout/icons.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { Disclosure, rowMenu } from '../ui/disclosure.tsx'

interface Choice {
  key: string
  query: string
  labelKey: string
  hintKey: string
}

/** One CSV entry per dialect (app/domain/csv-format.ts): a French Excel needs ";" and decimal commas, an English one ",". */
const CSV_CHOICES = {
  semicolon: { key: 'csv-semicolon', query: 'format=csv&separator=semicolon', labelKey: 'downloadFormats.csvSemicolon', hintKey: 'downloadFormats.csvSemicolonHint' },
  comma: { key: 'csv-comma', query: 'format=csv&separator=comma', labelKey: 'downloadFormats.csvComma', hintKey: 'downloadFormats.csvCommaHint' },
} satisfies Record<(typeof CSV_SEPARATORS)[number], Choice>

const XLSX_CHOICE: Choice = { key: 'xlsx', query: 'format=xlsx', labelKey: 'exports.detail.downloadExcel', hintKey: 'leadsView.download.xlsxHint' }

/** The choices in the order shown: the interface language's CSV dialect first, then the other, then Excel. */
function downloadChoices(language: string): Choice[] {
  const first = defaultCsvSeparator(language)
  return [first, ...CSV_SEPARATORS.filter((separator) => separator !== first)].map((separator) => CSV_CHOICES[separator]).concat(XLSX_CHOICE)
}

/** The Download menu: plain links (they work without JavaScript), each with its label and a one-line hint. */
export function DownloadMenu({ exportId, userId }: { exportId: string; userId: string }) {
  const { t, i18n } = useTranslation()
  return (
    <Disclosure
      className={rowMenu.details}
      label={
        <span className={buttonClasses()}>
          <Icon name="exports" className="size-4" />
          {t('exports.detail.download')}
          <Icon name="chevronDown" className="size-4 opacity-80" />
        </span>
      }
      panelClassName={rowMenu.panel}
    >
      <p className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-500">{t('leadsView.download.heading')}</p>
      <ul data-testid="download-menu">
        {downloadChoices(i18n.language).map((choice) => (
          <li key={choice.key}>
            <a
              href={`/api/exports/${exportId}/download?${choice.query}&userId=${userId}`}
              className="block rounded-lg px-2.5 py-2 hover:bg-slate-50 focus-visible:bg-slate-50"
              data-choice={choice.key}
              download
            >
              <span className="block text-sm font-medium text-slate-900">{t(choice.labelKey)}</span>
              <span className="block text-xs text-slate-500">{t(choice.hintKey)}</span>
            </a>
          </li>
        ))}
      </ul>
    </Disclosure>
  )
}
