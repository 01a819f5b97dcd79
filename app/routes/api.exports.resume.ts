import { data } from 'react-router'
import type { Route } from './+types/api.exports.resume'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { resumeExport } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { ExportRefBodySchema } from '#app/domain/export-commands.ts'
import { exportErrorMessageKey, plansHint } from '#app/domain/exports.ts'

/** POST /api/exports/resume {exportId, userId} (SPEC §7); errors answer {message}. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  const command = ExportRefBodySchema.safeParse(body)
  if (!command.success) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  const result = await resumeExport({ user, exportId: command.data.exportId })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.resumeFailed'))
    return data({ error: result.code, message, ...plansHint(result.code) }, { status: result.status })
  }
  return data({ success: true, message: t('exports.detail.resumed') })
}
