/**
 * The do-not-contact page's commands, read from its form posts: add one, paste many, import a CSV, remove, and
 * "never export this business" from a lead row. Each answers what the route needs to reply: a redirect target on
 * success, or a localized refusal with what the user sent, so nothing typed is lost.
 */
import { parse } from 'csv-parse/sync'
import { restoreFormula } from '#app/.server/exports/download/formulas.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { isUuid } from '#app/domain/ids.ts'
import { DNC_KINDS, type DncEntry, parseDncEntry, parseDncList } from '#app/domain/do-not-contact.ts'
import { DNC_CSV_COLUMNS } from './csv.ts'
import { addDncEntries, removeDncEntry } from './store.ts'

/** Rejected lines named back to the user: enough to find them, not a wall of text. */
const NAMED_REJECTIONS = 10

type DncIntent = 'add' | 'paste' | 'import' | 'remove' | 'add-business'

export type DncCommandResult =
  | { ok: true; added?: number; removed?: boolean; returnTo?: string }
  | { ok: false; intent: DncIntent; messageKey: string; values?: Record<string, string | number>; rejected?: string[]; sent?: string }

const text = (formData: FormData, name: string) => {
  const value = formData.get(name)
  return typeof value === 'string' ? value : ''
}

/** Only the export pages may be returned to (no open redirect). */
function safeReturnTo(value: string): string | undefined {
  return /^\/exports\/[\da-f-]{36}(?:\?[\w=&%-]*)?$/i.test(value) ? value : undefined
}

export async function runDncCommand(user: SessionUser, formData: FormData): Promise<DncCommandResult> {
  const intent = text(formData, 'intent')
  switch (intent) {
    case 'add':
    case 'add-business': {
      const sent = text(formData, 'value')
      const entry = parseDncEntry(sent)
      if (!entry || (intent === 'add-business' && entry.kind !== 'business')) return { ok: false, intent, messageKey: 'doNotContact.errors.unreadable', sent }
      const result = await save(user, intent, [entry], sent)
      return result.ok && intent === 'add-business' ? { ...result, returnTo: safeReturnTo(text(formData, 'returnTo')) } : result
    }
    case 'paste': {
      const sent = text(formData, 'entries')
      return addList(user, intent, sent, sent)
    }
    case 'import':
      return importFile(user, formData.get('file'))
    case 'remove': {
      const id = text(formData, 'id')
      return { ok: true, removed: isUuid(id) ? await removeDncEntry(user, id) : false }
    }
    default:
      return { ok: false, intent: 'add', messageKey: 'errorPage.badRequest' }
  }
}

/** All or nothing: with an unreadable line, nothing is added and the text comes back with those lines named. */
async function addList(user: SessionUser, intent: DncIntent, list: string, sent: string): Promise<DncCommandResult> {
  const { entries, rejected } = parseDncList(list)
  if (rejected.length) return { ok: false, intent, messageKey: 'doNotContact.errors.rejected', values: { count: rejected.length }, rejected: rejected.slice(0, NAMED_REJECTIONS), sent }
  if (entries.length === 0) return { ok: false, intent, messageKey: 'doNotContact.errors.empty', sent }
  return save(user, intent, entries, sent)
}

async function save(user: SessionUser, intent: DncIntent, entries: DncEntry[], sent: string): Promise<DncCommandResult> {
  const result = await addDncEntries(user, entries)
  if (!result.ok) return { ok: false, intent, messageKey: 'doNotContact.errors.tooMany', values: { room: result.room }, sent }
  return { ok: true, added: result.added }
}

/**
 * The cells that hold entries. Our own download (a header naming a `value` column) is read from that column only:
 * its name, city and date columns are for people, and a business name like "boulangerie.fr" must not become an
 * entry. Any other file: every cell, minus a header row (no cell readable) and our former kind column's labels.
 */
function entryCells(rows: string[][]): string[] {
  const [first, ...rest] = rows
  const hasHeader = first !== undefined && first.every((cell) => !cell || !parseDncEntry(cell))
  const valueColumn = hasHeader ? first.findIndex((cell) => cell.toLowerCase() === DNC_CSV_COLUMNS[1]) : -1
  if (valueColumn >= 0) return rest.map((row) => row[valueColumn] ?? '').filter(Boolean)
  return (hasHeader ? rest : rows).flat().filter((cell) => cell && !(DNC_KINDS as readonly string[]).includes(cell.toLowerCase()))
}

/** A CSV of entries (entryCells); formula-quoted values are read back as they were. */
async function importFile(user: SessionUser, file: FormDataEntryValue | null): Promise<DncCommandResult> {
  if (!(file instanceof File) || file.size === 0) return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.noFile' }
  const content = await file.text()
  // Not text (a spreadsheet, an image): the decoder replaced bytes it could not read.
  if (content.includes('\uFFFD')) return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.notCsv' }
  let rows: string[][]
  try {
    rows = parse(content.replace(/^\uFEFF/, ''), { delimiter: [',', ';', '\t'], relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true })
  } catch {
    return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.notCsv' }
  }
  // Our download quotes formula-like values (`'=1+1@evil.fr`): read back as the value itself.
  return addList(user, 'import', entryCells(rows).map(restoreFormula).join('\n'), '')
}
