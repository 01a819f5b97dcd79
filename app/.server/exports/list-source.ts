/**
 * The lead stream of a list's export: every usable row of the uploaded list (deduplicated: list-rows.ts), in file
 * order, matched to a business (lists/match.ts) several at a time. A row nothing matches still comes out, as a
 * "not found" lead with no task to run, so the file gives every row back and charges nothing for it.
 */
import type { Kysely } from 'kysely'
import { pMapIterable } from 'p-map'
import type { Database } from '#app/.server/db.ts'
import type { LeadSource } from '#app/.server/sources/index.ts'
import { readMappedList } from '#app/.server/lists/commands.ts'
import { createListMatcher, type ListCandidate } from '#app/.server/lists/match.ts'
import { listOfExport } from '#app/.server/lists/store.ts'
import type { Enrichers } from './enrichers.ts'

/** Rows matched at once: each waits on the registry's shared budget (7/s for the public one) or the map listing. */
const LIST_MATCH_CONCURRENCY = 8

/** The list id an export stored (search_params.list.id), or null for any other export. */
export function storedListId(searchParams: Record<string, unknown> | null): string | null {
  const id = (searchParams?.list as { id?: unknown } | undefined)?.id
  return typeof id === 'string' ? id : null
}

export async function* listCandidates(
  db: Kysely<Database>,
  listId: string,
  options: { enrichers: Enrichers; source: LeadSource; lang: 'fr' | 'en'; limit: number; signal?: AbortSignal },
): AsyncGenerator<ListCandidate> {
  const list = await listOfExport(db, listId)
  // A list deleted with its workspace, or never mapped: there is nothing to match.
  if (!list?.mapping) return
  const { columns } = list.mapping
  const reading = await readMappedList(list.id, columns, db)
  const matcher = createListMatcher({ enrichers: options.enrichers, source: options.source, listId, websiteColumn: columns.indexOf('website'), lang: options.lang, signal: options.signal })
  yield* pMapIterable(reading.rows.slice(0, options.limit), (row) => matcher.match(row), { concurrency: LIST_MATCH_CONCURRENCY })
}
