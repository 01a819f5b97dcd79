/**
 * A parsed list read through the mapping the user confirmed: each row's canonical identifiers (app/domain/
 * list-columns.ts) with its phone in E.164 and its country as a code, the rows that cannot be matched with why, and
 * the rows naming a company an earlier row already names (left out, and said: one company is matched once).
 * Run on the first rows it is the mapping step's preview; on all of them, the import's input.
 */
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { dedupeKeyOfRow, type ListMapping, type ListRowInput, type ListRowProblem, rowToListInput } from '#app/domain/list-columns.ts'
import { countryCodeFromName } from '../search/locations/countries.ts'
import type { ParsedList } from './parse-file.ts'

export interface ListRow extends ListRowInput {
  /** The row's place in the file (ParsedList.lines). */
  line: number
  /** ISO alpha-2 of the country column, when it names one. */
  countryCode: string | null
}

export interface ListReading {
  rows: ListRow[]
  unusable: Array<{ line: number; problem: ListRowProblem }>
  /** Rows left out for naming the company of the row on line `sameAs`. */
  duplicates: Array<{ line: number; sameAs: number }>
}

function phoneE164(text: string, country: CountryCode): string | null {
  try {
    const parsed = parsePhoneNumberFromString(text.replace(/^00(?=[1-9])/, '+'), { defaultCountry: country })
    return parsed?.isPossible() ? parsed.number : null
  } catch {
    return null
  }
}

/** The domain's row with its phone read in the row's country (France when it names none) and that country's code. */
function serverRow(input: ListRowInput, line: number, phoneColumn: number, defaultCountry: CountryCode): ListRow {
  const countryCode = input.country ? countryCodeFromName(input.country) : null
  const phoneCountry = countryCode && isSupportedCountry(countryCode) ? countryCode : defaultCountry
  const phone = input.phone ? phoneE164(input.phone, phoneCountry) : null
  const row: ListRow = { ...input, line, countryCode, phone }
  if (input.phone && !phone) row.notes = [...row.notes, { code: 'invalid_phone', column: phoneColumn }]
  return row
}

/** Every row of `list` read through `mapping`, in file order; `limit` reads only the first rows (the preview). */
export function readListRows(list: Pick<ParsedList, 'rows' | 'lines'>, mapping: Pick<ListMapping, 'columns'>, options: { limit?: number; defaultCountry?: CountryCode } = {}): ListReading {
  const reading: ListReading = { rows: [], unusable: [], duplicates: [] }
  const firstLineOf = new Map<string, number>()
  const count = Math.min(list.rows.length, options.limit ?? Infinity)
  const phoneColumn = mapping.columns.indexOf('phone')
  for (let i = 0; i < count; i++) {
    const line = list.lines[i] ?? i + 2
    const read = rowToListInput(list.rows[i]!, mapping)
    if ('unusable' in read) {
      reading.unusable.push({ line, problem: read.unusable })
      continue
    }
    const key = dedupeKeyOfRow(read.input)
    const sameAs = key === null ? undefined : firstLineOf.get(key)
    if (sameAs !== undefined) {
      reading.duplicates.push({ line, sameAs })
      continue
    }
    if (key !== null) firstLineOf.set(key, line)
    reading.rows.push(serverRow(read.input, line, phoneColumn, options.defaultCountry ?? 'FR'))
  }
  return reading
}
