import { data } from 'react-router'
import type { Route } from './+types/api.stripe.create-portal-session'
import { readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { portalApi } from '#app/.server/billing/api.ts'
import { appOrigin } from '#app/.server/billing/config.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'

/** POST /api/stripe/create-portal-session {user_id} → {url} or {error, code} (SPEC §7). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'Use POST', code: 'method_not_allowed' }, { status: 405 })
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  const t = getInstance(context).t
  const answer = await portalApi(user, body, { origin: appOrigin(request), locale: getLocale(context), t: (key) => t(key) })
  return data(answer.body, { status: answer.status })
}

export function loader() {
  return data({ error: 'Use POST', code: 'method_not_allowed' }, { status: 405 })
}
