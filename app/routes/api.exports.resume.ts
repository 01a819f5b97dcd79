import { data } from 'react-router'
import type { Route } from './+types/api.exports.resume'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { isUuid } from '#app/domain/ids.ts'
import { resumeExport } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { exportErrorMessageKey, plansHint } from '#app/utils/export-errors.ts'

/** POST /api/exports/resume {exportId, userId} (SPEC §7); errors answer {message}. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  if (!isUuid(body.exportId)) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  const result = await resumeExport({ user, exportId: body.exportId as string })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.resumeFailed'))
    return data({ error: result.code, message, ...plansHint(result.code) }, { status: result.status })
  }
  return data({ success: true, message: t('exports.detail.resumed') })
}
