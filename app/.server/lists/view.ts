/**
 * What the list pages show, read as the member: the upload page's recent lists, the mapping step's columns, guesses,
 * preview rows and the rows that cannot be matched (with why), the confirm page's match estimate.
 */
import type { SessionUser } from '#app/.server/auth.ts'
import { guessColumnKinds, type ListColumnKind } from '#app/domain/list-columns.ts'
import { estimateMatches } from '#app/domain/list-match.ts'
import type { ListConfirmView, ListMappingView, ListStage, ListSummary } from '#app/domain/list-views.ts'
import { readListRows } from './list-rows.ts'
import { readList, readLists, readOwnListCells, type StoredList } from './store.ts'

/** Rows the mapping step shows as read; rows it lists as unusable at most. */
const LIST_PREVIEW_ROWS = 8
const LIST_PROBLEMS_SHOWN = 20
/** Values per column the mapping form shows beside its choice. */
const COLUMN_EXAMPLES = 3

function stageOf(list: Pick<StoredList, 'exportId' | 'sample'>): ListStage {
  if (list.exportId) return 'launched'
  return list.sample ? 'ready' : 'mapping'
}

export async function readRecentLists(user: SessionUser): Promise<ListSummary[]> {
  const lists = await readLists(user)
  return lists.map((list) => ({ id: list.id, fileName: list.fileName, rowCount: list.rowCount, createdAt: list.createdAt, stage: stageOf(list), exportId: list.exportId }))
}

/** What was noticed in the rows still matched (a formula kept as text, an unreadable email…), counted by kind. */
function noteCounts(rows: ReadonlyArray<{ notes: ReadonlyArray<{ code: string }> }>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const row of rows) for (const note of row.notes) counts[note.code] = (counts[note.code] ?? 0) + 1
  return counts
}

/** The mapping step of the member's list for `columns` (default: saved, else guessed), or undefined when not theirs. */
export async function readListMapping(user: SessionUser, listId: string, columns?: ListColumnKind[]): Promise<ListMappingView | undefined> {
  const list = await readList(user, listId)
  if (!list) return undefined
  const cells = await readOwnListCells(user, list.id)
  const chosen = columns && columns.length === list.headers.length ? columns : (list.mapping?.columns ?? guessColumnKinds(list.headers, cells.rows.slice(0, 50)))
  const reading = readListRows(cells, { columns: chosen })
  const examples = list.headers.map((_, column) => cells.rows.map((row) => (row[column] ?? '').trim()).filter(Boolean).slice(0, COLUMN_EXAMPLES))
  return {
    list,
    columns: chosen,
    examples,
    previewRows: cells.rows.slice(0, LIST_PREVIEW_ROWS),
    usable: reading.rows.length,
    unusable: reading.unusable.slice(0, LIST_PROBLEMS_SHOWN).map(({ line, problem: { cells: _cells, ...problem } }) => ({ line, problem })),
    unusableCount: reading.unusable.length,
    duplicates: reading.duplicates.slice(0, LIST_PROBLEMS_SHOWN),
    duplicateCount: reading.duplicates.length,
    notes: noteCounts(reading.rows),
  }
}

export async function readListConfirm(user: SessionUser, listId: string): Promise<ListConfirmView | undefined | 'unmapped'> {
  const list = await readList(user, listId)
  if (!list) return undefined
  if (!list.sample) return 'unmapped'
  return { list, sample: list.sample, estimate: estimateMatches(list.sample) }
}
