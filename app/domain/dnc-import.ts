/**
 * The do-not-contact CSV import's rules: which columns of an ordinary file hold entries, and what each line gives.
 * Users bring what their tools export — a sheet of `email;société`, lemlist's unsubscribes, a HubSpot contact
 * export — not a file made for us. So the columns are picked by their header (French and English names) or, with
 * none known, by what most of their values are; every other column (names, companies, dates, flags) is ignored, and
 * each line that gives nothing is reported with its number and why. Pure: the command (app/.server/do-not-contact/
 * commands.ts) decodes the file and stores the entries.
 */
import { isValidSiren, isValidSiret } from './company-ids.ts'
import { type CsvRecord, detectDelimiter, parseCsvRecords } from './csv-text.ts'
import { type DncEntry, type DncKind, parseDncEntry } from './do-not-contact.ts'

/** What a column holds: one kind of entry (named by its header), or any kind (our download's `value`, or picked by content). */
export type DncColumnKind = 'email' | 'domain' | 'phone' | 'company' | 'any'

/**
 * Header names, as `headerKey` writes them (lowercase, no accents, words split by single spaces). Exact names only:
 * "Unsubscribed from all email" (HubSpot) is a yes/no flag, not addresses.
 */
const HEADER_NAMES: Record<DncColumnKind, readonly string[]> = {
  email: [
    'email', 'e mail', 'mail', 'emails', 'courriel', 'adresse email', 'adresse e mail', 'adresse mail', 'adresse courriel', 'adresse electronique',
    'email address', 'e mail address', 'mail address', 'primary email', 'work email', 'business email', 'contact email', 'email du contact',
    'email professionnel', 'e mail professionnel', 'email pro',
  ],
  domain: [
    'domain', 'domaine', 'domains', 'domaines', 'domain name', 'nom de domaine', 'company domain', 'company domain name', 'email domain',
    'domaine de l entreprise', 'site', 'site web', 'site internet', 'website', 'web site', 'website url', 'company website', 'url', 'web',
  ],
  phone: ['phone', 'phone number', 'mobile', 'mobile phone', 'mobile phone number', 'work phone', 'tel', 'telephone', 'numero de telephone', 'portable', 'telephone portable', 'telephone mobile', 'telephone fixe'],
  company: ['siren', 'siret', 'numero siren', 'numero siret', 'num siren', 'num siret', 'n siren', 'n siret', 'no siren', 'no siret', 'code siren', 'siren siret', 'siret siren'],
  any: ['value', 'valeur', 'entry', 'entree', 'entries', 'entrees'],
}

const KIND_BY_HEADER = new Map(Object.entries(HEADER_NAMES).flatMap(([kind, names]) => names.map((name) => [name, kind as DncColumnKind])))

/** "Adresse e-mail" → "adresse e mail", "companyDomain" → "company domain", "N° SIREN" → "n siren". */
function headerKey(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z\d]+/g, ' ')
    .trim()
}

export function headerKind(name: string): DncColumnKind | null {
  return KIND_BY_HEADER.get(headerKey(name)) ?? null
}

const ACCEPTS: Record<DncColumnKind, readonly DncKind[]> = {
  // lemlist's unsubscribes list domains in its email column ("@acme.fr", "acme.fr"): a domain there is meant.
  email: ['email', 'domain'],
  domain: ['domain'],
  phone: ['phone'],
  company: ['siren', 'siret'],
  any: ['email', 'domain', 'phone', 'siren', 'siret', 'business'],
}

/** Why a line gave nothing, or why one of its values was not read. */
type DncImportReason = 'notEmail' | 'notDomain' | 'notPhone' | 'notCompanyId' | 'checkDigit' | 'unreadable' | 'empty'

const WRONG_KIND: Record<DncColumnKind, DncImportReason> = { email: 'notEmail', domain: 'notDomain', phone: 'notPhone', company: 'notCompanyId', any: 'unreadable' }

/** A SIREN or SIRET whose check digit is wrong is a typo, never a company: it is refused, not listed. */
function checkDigitsValid(entry: DncEntry): boolean {
  if (entry.kind === 'siren') return isValidSiren(entry.value)
  if (entry.kind === 'siret') return isValidSiret(entry.value)
  return true
}

/** One value of a column, as its column reads it. */
function readValue(value: string, kind: DncColumnKind): DncEntry | DncImportReason {
  const entry = parseDncEntry(value)
  if (!entry || !ACCEPTS[kind].includes(entry.kind)) return WRONG_KIND[kind]
  return checkDigitsValid(entry) ? entry : 'checkDigit'
}

/** A column read for entries: its position (0-based), its header (null in a file without one) and what it holds. */
export interface DncImportColumn {
  index: number
  name: string | null
  kind: DncColumnKind
}

/** A value counts as an entry when picking columns by content: a SIREN or SIRET only with a valid check digit. */
function readsAsEntry(value: string): boolean {
  const entry = parseDncEntry(value)
  return entry !== null && checkDigitsValid(entry)
}

/**
 * The columns to read, by content: those where more than half the values are entries (of any kind: a file of one
 * value per line mixes emails, domains and phone numbers). None such (a list of mostly unreadable values): every
 * column, so each line is read and its problems reported.
 */
function columnsByContent(body: readonly CsvRecord[], header: CsvRecord | null): DncImportColumn[] {
  const width = Math.max(0, ...body.map((record) => record.cells.length))
  const columns: DncImportColumn[] = []
  const filled: DncImportColumn[] = []
  for (let index = 0; index < width; index++) {
    const values = body.map((record) => record.cells[index] ?? '').filter(Boolean)
    if (values.length === 0) continue
    const column = { index, name: header?.cells[index] || null, kind: 'any' as const }
    filled.push(column)
    if (values.filter(readsAsEntry).length * 2 > values.length) columns.push(column)
  }
  return columns.length ? columns : filled
}

/**
 * Which columns hold entries, and which record (if any) is the header. A first line naming known columns (email,
 * domaine, SIRET, our download's `value`…) is the header, and only those columns are read. Otherwise the first line
 * is a header when none of its cells is an entry, and the columns are picked by content.
 */
export function pickColumns(records: readonly CsvRecord[]): { header: CsvRecord | null; columns: DncImportColumn[] } {
  const [first] = records
  if (!first) return { header: null, columns: [] }
  const named = first.cells.flatMap((name, index) => {
    const kind = headerKind(name)
    return kind ? [{ index, name, kind }] : []
  })
  if (named.length) return { header: first, columns: named }
  const header = first.cells.every((cell) => !readsAsEntry(cell)) ? first : null
  return { header, columns: columnsByContent(header ? records.slice(1) : records, header) }
}

/** A line the import could not (fully) read. `partial`: other values of the line were read; the line is not rejected. */
export interface DncImportIssue {
  line: number
  reason: DncImportReason
  /** The value as written (clipped), absent for an empty line. */
  value?: string
  /** The column's header, or its position (1-based) in a file without one. */
  column?: string
  partial: boolean
}

export interface DncImportReading {
  /** The columns read, as the report names them (header, or position from 1). */
  columns: string[]
  /** Distinct entries, in file order. */
  entries: DncEntry[]
  /** Entries found again further down the file. */
  duplicates: number
  /** Lines that gave no entry. */
  rejected: number
  issues: DncImportIssue[]
}

const SHOWN_VALUE_LENGTH = 80

const columnLabel = (column: DncImportColumn) => column.name ?? String(column.index + 1)

/**
 * Reads a file's text. `unquote` undoes what our own download did to a value (the formula quote, which lives with
 * the export files on the server).
 */
export function readDncImport(text: string, unquote: (value: string) => string = (value) => value): DncImportReading {
  const records = parseCsvRecords(text, detectDelimiter(text))
  const { header, columns } = pickColumns(records)
  const seen = new Set<string>()
  const reading: DncImportReading = { columns: columns.map(columnLabel), entries: [], duplicates: 0, rejected: 0, issues: [] }
  for (const record of records) {
    if (record === header) continue
    let read = 0
    const problems: Omit<DncImportIssue, 'partial'>[] = []
    for (const column of columns) {
      const value = unquote(record.cells[column.index] ?? '')
      if (!value) continue
      const outcome = readValue(value, column.kind)
      if (typeof outcome === 'string') {
        problems.push({ line: record.line, reason: outcome, value: value.slice(0, SHOWN_VALUE_LENGTH), column: columnLabel(column) })
        continue
      }
      read++
      const key = `${outcome.kind}:${outcome.value}`
      if (seen.has(key)) reading.duplicates++
      else {
        seen.add(key)
        reading.entries.push(outcome)
      }
    }
    if (read === 0) reading.rejected++
    if (read === 0 && problems.length === 0) reading.issues.push({ line: record.line, reason: 'empty', partial: false })
    // One issue per line: its first unreadable value says enough to find and fix it.
    else if (problems[0]) reading.issues.push({ ...problems[0], partial: read > 0 })
  }
  return reading
}

/** What an import did, as the page reports it (with and without JavaScript: it is the action's answer). */
export interface DncImportReport {
  columns: string[]
  added: number
  /** Read, but already on the list. */
  alreadyListed: number
  duplicates: number
  rejected: number
  /** The first lines with a problem; `issuesLeftOut` more are not named. */
  issues: DncImportIssue[]
  issuesLeftOut: number
}
