import { stringify } from 'csv-stringify/sync'
import type { DncListedEntry } from '#app/domain/do-not-contact.ts'
import { neutralizeFormulaReversibly } from '#app/.server/exports/download/formulas.ts'

/** The download's columns. The import reads `value` only (its header names it, app/domain/dnc-import.ts): the others are for people. */
const DNC_CSV_COLUMNS = ['kind', 'value', 'name', 'city', 'added'] as const

/**
 * The list as the CSV file Settings offers (kind, value, then a business's name and city and the day the entry was
 * added), which imports back as is. An address like `=1+1@evil.fr` is valid, so values get the export files' formula
 * quote; the import removes it (commands.ts, restoreFormula). Names and cities come from the lead sources: quoted too.
 */
export function dncListCsv(entries: readonly DncListedEntry[]): string {
  const rows = entries.map((entry) => [
    entry.kind,
    neutralizeFormulaReversibly(entry.value),
    entry.name === null ? '' : neutralizeFormulaReversibly(entry.name),
    entry.city === null ? '' : neutralizeFormulaReversibly(entry.city),
    entry.createdAt.slice(0, 10),
  ])
  return `\uFEFF${stringify(rows, { header: true, columns: [...DNC_CSV_COLUMNS] })}`
}
