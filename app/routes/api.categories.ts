import { data } from 'react-router'
import type { Route } from './+types/api.categories'
import { requireApiUser } from '#app/.server/api.ts'
import { categoryOptionsForApi } from '#app/.server/taxonomy/categories.ts'

/**
 * GET /api/categories?lang=fr|en (default fr, SPEC §1) → [{id, value, label}], cacheable for an hour.
 * `include=terms` adds each option's search keys (other language's label, preset terms) for the picker.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(context)
  const params = new URL(request.url).searchParams
  const lang = params.get('lang') ?? 'fr'
  if (lang !== 'fr' && lang !== 'en') return data({ error: 'unsupported_lang', message: 'lang must be fr or en' }, { status: 400 })
  return data(categoryOptionsForApi(lang, { withTerms: params.get('include') === 'terms' }), { headers: { 'Cache-Control': 'private, max-age=3600' } })
}
