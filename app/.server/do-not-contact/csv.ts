import { stringify } from 'csv-stringify/sync'
import type { DncEntry } from '#app/domain/do-not-contact.ts'
import { neutralizeFormulaReversibly } from '#app/.server/exports/download/formulas.ts'

/**
 * The list as the CSV file Settings offers (kind, value), which imports back as is. An address like `=1+1@evil.fr`
 * is valid, so values get the export files' formula quote; the import removes it (commands.ts, restoreFormula).
 */
export function dncListCsv(entries: readonly DncEntry[]): string {
  return `\uFEFF${stringify(entries.map((entry) => [entry.kind, neutralizeFormulaReversibly(entry.value)]), { header: true, columns: ['kind', 'value'] })}`
}
