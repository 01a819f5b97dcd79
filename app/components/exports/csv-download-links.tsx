import { useTranslation } from 'react-i18next'
import { CSV_SEPARATORS, defaultCsvSeparator, type CsvSeparator } from '#app/domain/csv-format.ts'

const LABEL_KEYS: Record<CsvSeparator, { label: string; hint: string }> = {
  semicolon: { label: 'downloadFormats.csvSemicolon', hint: 'downloadFormats.csvSemicolonHint' },
  comma: { label: 'downloadFormats.csvComma', hint: 'downloadFormats.csvCommaHint' },
}

/**
 * The Download menu's CSV entries, one per dialect (app/domain/csv-format.ts): a French Excel
 * needs ";" and decimal commas, an English one ",". Plain links, so they work without JavaScript;
 * the interface language's dialect comes first.
 */
export function CsvDownloadLinks({ href, className }: { href: (separator: CsvSeparator) => string; className?: string }) {
  const { t, i18n } = useTranslation()
  const first = defaultCsvSeparator(i18n.language)
  const ordered = [first, ...CSV_SEPARATORS.filter((separator) => separator !== first)]
  return ordered.map((separator) => (
    <a key={separator} href={href(separator)} className={className} data-separator={separator} download>
      <span className="block">{t(LABEL_KEYS[separator].label)}</span>
      <span className="block text-xs text-slate-500">{t(LABEL_KEYS[separator].hint)}</span>
    </a>
  ))
}
