import { data } from 'react-router'
import type { Route } from './+types/api.exports.queue'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { isUuid } from '#app/domain/ids.ts'
import { queueExport } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { exportErrorMessageKey, plansHint } from '#app/utils/export-errors.ts'

/**
 * POST /api/exports/queue {exportId, userId} (SPEC §7). Creation already enqueues the job in its
 * own transaction; this call makes sure a running export has a job (idempotent).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  if (!isUuid(body.exportId as string)) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  const result = await queueExport({ user, exportId: body.exportId as string })
  if (!result.ok) return data({ error: result.code, message: t(exportErrorMessageKey(result.code, 'common.error')), ...plansHint(result.code) }, { status: result.status })
  return data({ success: true })
}
