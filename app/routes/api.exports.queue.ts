import { data } from 'react-router'
import type { Route } from './+types/api.exports.queue'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { queueExport } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { ExportRefBodySchema } from '#app/domain/export-commands.ts'
import { exportErrorMessageKey, plansHint } from '#app/domain/exports.ts'

/**
 * POST /api/exports/queue {exportId, userId} (SPEC §7). Creation already enqueues the job in its
 * own transaction; this call makes sure a running export has a job (idempotent).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  const command = ExportRefBodySchema.safeParse(body)
  if (!command.success) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  const result = await queueExport({ user, exportId: command.data.exportId })
  if (!result.ok) return data({ error: result.code, message: t(exportErrorMessageKey(result.code, 'common.error')), ...plansHint(result.code) }, { status: result.status })
  return data({ success: true })
}
