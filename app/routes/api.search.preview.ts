import { data } from 'react-router'
import type { Route } from './+types/api.search.preview'
import { readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { firstBadField, PreviewBodySchema } from '#app/domain/search-schema.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'

/**
 * POST /api/search/preview {sector, country, countryCode, region, department, city, lang}
 * → up to 20 preview results; a non-OK answer carries {error, message} (SPEC §7).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'method_not_allowed', message: 'Use POST' }, { status: 405 })
  const user = await requireApiUser(context)
  const body = PreviewBodySchema.safeParse(await readJsonObject(request, context))
  if (!body.success) return data({ error: 'invalid_field', message: `${firstBadField(body.error)} must be a string` }, { status: 400 })
  const t = getInstance(context).t
  const lang = body.data.lang ?? (getLocale(context) as 'fr' | 'en')
  await enforceLimit(context, 'preview', user.id)
  const { plan } = await requireCreditsSummary(user)
  const outcome = await onBehalfOf(user.workspace.id, () => runPreview(body.data.criteria, { lang, plan, signal: request.signal }))
  if (!outcome.ok) return data({ error: outcome.error, message: t(outcome.messageKey), ...(outcome.field ? { field: outcome.field } : {}) }, { status: outcome.status })
  return data(outcome.results)
}

export function loader() {
  return data({ error: 'method_not_allowed', message: 'Use POST' }, { status: 405 })
}
