/**
 * The do-not-contact page's commands, read from its form posts: add one, paste many, import a CSV, remove, and
 * "never export this business" from a lead row. Each answers what the route needs to reply: a redirect target on
 * success, or a localized refusal with what the user sent, so nothing typed is lost.
 */
import { restoreFormula } from '#app/.server/exports/download/formulas.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { isUuid } from '#app/domain/ids.ts'
import { decodeCsvBytes } from '#app/domain/csv-text.ts'
import { type DncImportReport, readDncImport } from '#app/domain/dnc-import.ts'
import { type DncEntry, parseDncEntry, parseDncList } from '#app/domain/do-not-contact.ts'
import { addDncEntries, removeDncEntry } from './store.ts'

/** Rejected lines named back to the user: enough to find them, not a wall of text. */
const NAMED_REJECTIONS = 10
/** An import's lines with a problem named in its report, each with its number and why (the rest are counted). */
const NAMED_ISSUES = 50

type DncIntent = 'add' | 'paste' | 'import' | 'remove' | 'add-business'

export type DncCommandResult =
  | { ok: true; added?: number; removed?: boolean; returnTo?: string; report?: DncImportReport }
  | { ok: false; intent: DncIntent; messageKey: string; values?: Record<string, string | number>; rejected?: string[]; sent?: string; report?: DncImportReport }

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
 * A CSV file, read as its columns allow (app/domain/dnc-import.ts): what it gives is added, and the report says what
 * was added, already listed, repeated and which lines gave nothing. Nothing readable at all is a refusal, with that
 * report. Formula-quoted values of our own download are read back as they were.
 */
async function importFile(user: SessionUser, file: FormDataEntryValue | null): Promise<DncCommandResult> {
  if (!(file instanceof File) || file.size === 0) return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.noFile' }
  const text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()))
  if (text === null) return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.notCsv' }
  const reading = readDncImport(text, restoreFormula)
  const report = (added: number): DncImportReport => ({
    columns: reading.columns,
    added,
    alreadyListed: reading.entries.length - added,
    duplicates: reading.duplicates,
    rejected: reading.rejected,
    issues: reading.issues.slice(0, NAMED_ISSUES),
    issuesLeftOut: Math.max(0, reading.issues.length - NAMED_ISSUES),
  })
  if (reading.entries.length === 0) return { ok: false, intent: 'import', messageKey: reading.rejected ? 'doNotContact.errors.nothingRead' : 'doNotContact.errors.empty', report: report(0) }
  const result = await addDncEntries(user, reading.entries)
  if (!result.ok) return { ok: false, intent: 'import', messageKey: 'doNotContact.errors.tooMany', values: { room: result.room } }
  return { ok: true, added: result.added, report: report(result.added) }
}
