import { data } from 'react-router'
import type { Route } from './+types/api.exports.queue'
import { readExportRefCommand } from '#app/.server/api.ts'
import { queueExport } from '#app/.server/exports/service.ts'
import { exportErrorMessageKey, plansHint } from '#app/domain/exports.ts'

/**
 * POST /api/exports/queue {exportId, userId} (SPEC §7). Creation already enqueues the job in its
 * own transaction; this call makes sure a running export has a job (idempotent).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, exportId, t } = await readExportRefCommand(request, context)
  const result = await queueExport({ user, exportId })
  if (!result.ok) return data({ error: result.code, message: t(exportErrorMessageKey(result.code, 'common.error')), ...plansHint(result.code) }, { status: result.status })
  return data({ success: true })
}
