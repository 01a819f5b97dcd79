/**
 * The name and city of the businesses a batch of entries lists, read from the user's own leads (as the user: RLS), so a
 * "never export this business" entry stays readable after the export that showed it is deleted. A business the user
 * has no lead for (a pasted or imported id) gets no label: the list shows its id.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { DncEntry } from '#app/domain/do-not-contact.ts'

interface BusinessLabel {
  name: string | null
  city: string | null
}

/** `<source>:<place id>` → its label, for the business entries the user has a lead for. */
export async function businessLabels(trx: Kysely<Database>, userId: string, entries: readonly DncEntry[]): Promise<Map<string, BusinessLabel>> {
  const refs = entries.filter((entry) => entry.kind === 'business').map((entry) => entry.value)
  if (refs.length === 0) return new Map()
  // The place id may itself hold ':' (osm:node/42 has none, but nothing forbids it): the source is what precedes the first.
  const sources = refs.map((ref) => ref.slice(0, ref.indexOf(':')))
  const placeIds = refs.map((ref) => ref.slice(ref.indexOf(':') + 1))
  const { rows } = await sql<{ source: string; place_id: string; name: string | null; city: string | null }>`
    select distinct on (l.source, l.place_id) l.source, l.place_id, l.name, l.city
      from public.leads l
      join unnest(${sources}::text[], ${placeIds}::text[]) as wanted(source, place_id) on wanted.source = l.source and wanted.place_id = l.place_id
     where l.user_id = ${userId}
     order by l.source, l.place_id, l.updated_at desc nulls last`.execute(trx)
  return new Map(rows.map((row) => [`${row.source}:${row.place_id}`, { name: clip(row.name, 500), city: clip(row.city, 200) }]))
}

/** Within the columns' bounds (the migration's check). */
function clip(text: string | null, max: number): string | null {
  const trimmed = text?.trim()
  return trimmed ? trimmed.slice(0, max) : null
}
