import type { Route } from './+types/settings.do-not-contact.download'
import { requireUser } from '#app/.server/auth.ts'
import { dncListCsv } from '#app/.server/do-not-contact/csv.ts'
import { readOwnDncList } from '#app/.server/do-not-contact/store.ts'

/** The whole list as CSV (kind, value): the same file imports back. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  return new Response(dncListCsv(await readOwnDncList(user)), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="do-not-contact.csv"', 'Cache-Control': 'no-store' },
  })
}
