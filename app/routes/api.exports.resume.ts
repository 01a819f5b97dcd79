import { data } from 'react-router'
import type { Route } from './+types/api.exports.resume'
import { readExportRefCommand } from '#app/.server/api.ts'
import { resumeExport } from '#app/.server/exports/service.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { exportErrorMessageKey, plansHint } from '#app/domain/exports.ts'

/** POST /api/exports/resume {exportId, userId} (SPEC §7); errors answer {message}. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, exportId, t } = await readExportRefCommand(request, context)
  await enforceLimit(context, 'exportResume', user.id)
  const result = await resumeExport({ user, exportId })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.resumeFailed'))
    return data({ error: result.code, message, ...plansHint(result.code) }, { status: result.status })
  }
  return data({ success: true, message: t('exports.detail.resumed') })
}
