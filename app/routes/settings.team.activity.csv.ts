import type { Route } from './+types/settings.team.activity.csv'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { readActivityLog } from '#app/.server/workspaces/activity.ts'
import { activityCsv } from '#app/.server/workspaces/activity-csv.ts'

/** The whole activity log of the current workspace as CSV (owners and admins). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const csv = activityCsv(await readActivityLog(user), getInstance(context).t)
  return new Response(csv, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="team-activity.csv"', 'Cache-Control': 'no-store' },
  })
}
