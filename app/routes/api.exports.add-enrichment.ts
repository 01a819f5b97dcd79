import { data } from 'react-router'
import type { Route } from './+types/api.exports.add-enrichment'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { addEnrichment } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { AddEnrichmentBodySchema, ExportIdSchema } from '#app/domain/export-commands.ts'
import { exportErrorMessageKey, plansHint } from '#app/domain/exports.ts'

/** POST /api/exports/{id}/add-enrichment {userId, enrichmentOptions: {type: true}} (SPEC §7). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  if (!ExportIdSchema.safeParse(params.id).success) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  // Not a map of options: nothing was chosen, the same answer as a map with nothing set to true.
  const command = AddEnrichmentBodySchema.safeParse(body)
  if (!command.success) return data({ error: 'add_enrichment_none', message: t('exports.errors.selectOne') }, { status: 400 })
  await enforceLimit(context, 'exportEnrich', user.id)
  const result = await addEnrichment({ user, exportId: params.id, options: command.data.enrichmentOptions })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.addFailed'))
    return data({ error: result.code === 'insufficient_credits' ? 'Insufficient credits' : result.code, message, ...plansHint(result.code) }, { status: result.status })
  }
  return data({ success: true })
}
