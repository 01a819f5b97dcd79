import { data } from 'react-router'
import type { Route } from './+types/api.search.preview'
import { readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { isLanguage } from '#app/i18n.ts'

const TEXT_FIELDS = ['sector', 'country', 'countryCode', 'region', 'department', 'city'] as const

/**
 * POST /api/search/preview {sector, country, countryCode, region, department, city, lang}
 * → up to 20 preview results; a non-OK answer carries {error, message} (SPEC §7).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'method_not_allowed', message: 'Use POST' }, { status: 405 })
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  const t = getInstance(context).t
  const criteria = { sector: '', country: '', region: '', department: '', city: '' } as Record<(typeof TEXT_FIELDS)[number], string>
  for (const field of TEXT_FIELDS) {
    const value = body[field]
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return data({ error: 'invalid_field', message: `${field} must be a string` }, { status: 400 })
    }
    criteria[field] = (value ?? '').trim().slice(0, 200)
  }
  const lang = isLanguage(body.lang) ? body.lang : (getLocale(context) as 'fr' | 'en')
  await enforceLimit(context, 'preview', user.id)
  const { plan } = await getCreditsSummary(user)
  const outcome = await runPreview(criteria, { lang, plan, signal: request.signal })
  if (!outcome.ok) return data({ error: outcome.error, message: t(outcome.messageKey) }, { status: outcome.status })
  return data(outcome.results)
}

export function loader() {
  return data({ error: 'method_not_allowed', message: 'Use POST' }, { status: 405 })
}
