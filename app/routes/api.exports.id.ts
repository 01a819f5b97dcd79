import { data } from 'react-router'
import type { Route } from './+types/api.exports.id'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { deleteExport } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { ExportIdSchema } from '#app/domain/export-commands.ts'
import { exportErrorMessageKey } from '#app/domain/exports.ts'

/** DELETE /api/exports/{id} {userId} (SPEC §7): cancels a running export and deletes it; errors answer {error}. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'DELETE') return data({ error: 'Use DELETE' }, { status: 405 })
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  const exportId = ExportIdSchema.safeParse(params.id)
  if (!exportId.success) return data({ error: t('exports.errors.notFound') }, { status: 404 })
  const result = await deleteExport({ user, exportId: exportId.data })
  if (!result.ok) return data({ error: t(exportErrorMessageKey(result.code, 'exports.errors.deleteFailed')) }, { status: result.status })
  return data({ success: true })
}

export function loader() {
  return data({ error: 'Use DELETE' }, { status: 405 })
}
