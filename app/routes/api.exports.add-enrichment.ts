import { data } from 'react-router'
import type { Route } from './+types/api.exports.add-enrichment'
import { assertPayloadUser, readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { isUuid } from '#app/domain/ids.ts'
import { addEnrichment } from '#app/.server/exports/service.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { ENRICHMENT_TYPES, type EnrichmentType } from '#app/domain/enrichment.ts'
import { exportErrorMessageKey, plansHint } from '#app/utils/export-errors.ts'

/** POST /api/exports/{id}/add-enrichment {userId, enrichmentOptions: {type: true}} (SPEC §7). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  assertPayloadUser(context, user, body.userId)
  const t = getInstance(context).t
  if (!isUuid(params.id)) return data({ error: 'not_found', message: t('exports.errors.notFound') }, { status: 404 })
  const raw = body.enrichmentOptions
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return data({ error: 'add_enrichment_none', message: t('exports.errors.selectOne') }, { status: 400 })
  }
  const options = Object.entries(raw)
    .filter(([type, value]) => value === true && (ENRICHMENT_TYPES as readonly string[]).includes(type))
    .map(([type]) => type as EnrichmentType)
  const result = await addEnrichment({ user, exportId: params.id, options })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.addFailed'))
    return data({ error: result.code === 'insufficient_credits' ? 'Insufficient credits' : result.code, message, ...plansHint(result.code) }, { status: result.status })
  }
  return data({ success: true })
}
