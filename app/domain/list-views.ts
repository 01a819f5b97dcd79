/**
 * What the list pages show (app/.server/lists/view.ts reads it): shapes shared by the server and the components.
 */
import type { ListColumnKind, ListRowProblem } from './list-columns.ts'
import type { ListMatchEstimate, ListSampleSummary } from './list-match.ts'

export type ListStage = 'mapping' | 'ready' | 'launched'

export interface ListSummary {
  id: string
  fileName: string
  rowCount: number
  createdAt: string
  stage: ListStage
  exportId: string | null
}

interface ListFacts {
  id: string
  fileName: string
  format: string
  headers: string[]
  rowCount: number
  /** Rows the parse left out for repeating an earlier row cell for cell. */
  repeatedRows: number
  exportId: string | null
}

export interface ListMappingView {
  list: ListFacts
  /** What each column holds: the sent mapping, else the saved one, else the guesses. */
  columns: ListColumnKind[]
  /** The first values of each column (blank ones skipped). */
  examples: string[][]
  /** The first rows, as the file gave them: the preview reads them through the mapping (in the browser too). */
  previewRows: string[][]
  usable: number
  unusable: Array<{ line: number; problem: Omit<ListRowProblem, 'cells'> }>
  unusableCount: number
  /** Rows naming the company of an earlier row (the first ones), and how many in all. */
  duplicates: Array<{ line: number; sameAs: number }>
  duplicateCount: number
  /** Cells noticed in rows still matched, by ListRowNoteCode (formula_text, invalid_email…). */
  notes: Record<string, number>
}

export interface ListConfirmView {
  list: Pick<ListFacts, 'id' | 'fileName' | 'rowCount' | 'repeatedRows' | 'exportId'>
  sample: ListSampleSummary
  estimate: ListMatchEstimate
}
