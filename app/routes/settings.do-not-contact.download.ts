import { stringify } from 'csv-stringify/sync'
import type { Route } from './+types/settings.do-not-contact.download'
import { requireUser } from '#app/.server/auth.ts'
import { readOwnDncList } from '#app/.server/do-not-contact/store.ts'

/** The whole list as CSV (kind, value): the same file imports back. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const entries = await readOwnDncList(user)
  const csv = stringify(entries.map((entry) => [entry.kind, entry.value]), { header: true, columns: ['kind', 'value'] })
  return new Response(`\uFEFF${csv}`, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="do-not-contact.csv"', 'Cache-Control': 'no-store' },
  })
}
