/**
 * Lists as stored (supabase/migrations/20261203110000_lists.sql): the upload in one transaction (never half-imported),
 * read back as the member under RLS, or by the export run on the privileged connection.
 */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, jsonb, withUser, type Database, type JsonObject } from '#app/.server/db.ts'
import { isUuid } from '#app/domain/ids.ts'
import { LIST_COLUMN_KINDS, type ListColumnKind } from '#app/domain/list-columns.ts'
import type { ListSampleSummary } from '#app/domain/list-match.ts'
import type { ParsedList } from './parse-file.ts'

/** Rows written per insert: 50 000 rows go in 25 statements of one transaction. */
const INSERT_CHUNK = 2000

export interface StoredList {
  id: string
  fileName: string
  format: string
  headers: string[]
  rowCount: number
  repeatedRows: number
  mapping: { columns: ListColumnKind[] } | null
  sample: ListSampleSummary | null
  exportId: string | null
  createdAt: string
}

type ListRowRecord = { id: string; file_name: string; format: string; headers: string[]; row_count: number; repeated_rows: number; mapping: unknown; sample: unknown; export_id: string | null; created_at: Date | string }

function mappingOf(value: unknown): StoredList['mapping'] {
  const columns = (value as { columns?: unknown } | null)?.columns
  if (!Array.isArray(columns) || !columns.every((kind) => (LIST_COLUMN_KINDS as readonly unknown[]).includes(kind))) return null
  return { columns: columns as ListColumnKind[] }
}

function toStoredList(row: ListRowRecord): StoredList {
  return {
    id: row.id,
    fileName: row.file_name,
    format: row.format,
    headers: row.headers,
    rowCount: row.row_count,
    repeatedRows: row.repeated_rows,
    mapping: mappingOf(row.mapping),
    sample: (row.sample as ListSampleSummary | null) ?? null,
    exportId: row.export_id,
    createdAt: new Date(row.created_at).toISOString(),
  }
}

const LIST_COLUMNS = ['id', 'file_name', 'format', 'headers', 'row_count', 'repeated_rows', 'mapping', 'sample', 'export_id', 'created_at'] as const

/** Stores a parsed file and its rows for the member's workspace, all or nothing. */
export async function insertList(user: SessionUser, fileName: string, parsed: Omit<ParsedList, 'format'> & { format: 'csv' | 'xlsx' | 'json' }, db: Kysely<Database> = adminDb()): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const list = await trx
      .insertInto('lists')
      .values({
        user_id: user.workspace.id,
        created_by: user.id,
        file_name: fileName.slice(0, 200) || 'list',
        format: parsed.format,
        headers: parsed.headers,
        row_count: parsed.rows.length,
        repeated_rows: parsed.duplicates,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (let start = 0; start < parsed.rows.length; start += INSERT_CHUNK) {
      const rows = parsed.rows.slice(start, start + INSERT_CHUNK)
      const lines = parsed.lines.slice(start, start + INSERT_CHUNK)
      // One array of lines and one JSON array of cell arrays: a text[][] must be rectangular, rows of a CSV need not be.
      await sql`
        insert into public.list_rows (list_id, user_id, line, cells)
        select ${list.id}::uuid, ${user.workspace.id}::uuid, r.line, array(select jsonb_array_elements_text(r.cells))
          from unnest(${lines}::int[], array(select jsonb_array_elements(${JSON.stringify(rows)}::jsonb))) as r(line, cells)`.execute(trx)
    }
    return list.id
  })
}

/** The member's list (RLS: another workspace's is undefined). */
export async function readList(user: SessionUser, listId: string): Promise<StoredList | undefined> {
  if (!isUuid(listId)) return undefined
  const row = await withUser(user.claims, (trx) => trx.selectFrom('lists').select([...LIST_COLUMNS]).where('id', '=', listId).executeTakeFirst())
  return row ? toStoredList(row as ListRowRecord) : undefined
}

/** The workspace's lists, newest first. */
export async function readLists(user: SessionUser, limit = 20): Promise<StoredList[]> {
  const rows = await withUser(user.claims, (trx) => trx.selectFrom('lists').select([...LIST_COLUMNS]).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute())
  return rows.map((row) => toStoredList(row as ListRowRecord))
}

/** A list's rows in file order: their lines and cells (the first `limit` when given). */
export async function readListCells(db: Kysely<Database> | Transaction<Database>, listId: string, limit?: number): Promise<{ rows: string[][]; lines: number[] }> {
  let query = db.selectFrom('list_rows').select(['line', 'cells']).where('list_id', '=', listId).orderBy('line')
  if (limit !== undefined) query = query.limit(limit)
  const found = await query.execute()
  return { rows: found.map((row) => row.cells), lines: found.map((row) => row.line) }
}

/** The member's list's cells, read as the member. */
export function readOwnListCells(user: SessionUser, listId: string, limit?: number) {
  return withUser(user.claims, (trx) => readListCells(trx, listId, limit))
}

export async function saveListMapping(user: SessionUser, listId: string, mapping: { columns: ListColumnKind[] }, sample: ListSampleSummary, db: Kysely<Database> = adminDb()): Promise<void> {
  await db
    .updateTable('lists')
    .set({ mapping: jsonb(mapping as unknown as JsonObject), sample: jsonb(sample as unknown as JsonObject), updated_at: sql`now()` })
    .where('id', '=', listId)
    .where('user_id', '=', user.workspace.id)
    .execute()
}

/** The list of an export being run (privileged: the worker). */
export async function listOfExport(db: Kysely<Database>, listId: string) {
  const row = await db.selectFrom('lists').select([...LIST_COLUMNS]).where('id', '=', listId).executeTakeFirst()
  return row ? toStoredList(row as ListRowRecord) : undefined
}

/** A list no export took (an API request that replayed or was refused after storing it): removed with its rows. */
export async function deleteUnlaunchedList(user: SessionUser, listId: string, db: Kysely<Database> = adminDb()): Promise<void> {
  await db.deleteFrom('lists').where('id', '=', listId).where('user_id', '=', user.workspace.id).where('export_id', 'is', null).execute()
}
