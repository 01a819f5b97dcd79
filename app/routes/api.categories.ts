import { data } from 'react-router'
import type { Route } from './+types/api.categories'
import { requireApiUser } from '#app/.server/api.ts'
import { listCategories } from '#app/.server/search/categories.ts'

/** GET /api/categories?lang=fr|en (default fr, SPEC §1) → [{id, value, label}], cacheable for an hour. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(context)
  const lang = new URL(request.url).searchParams.get('lang') ?? 'fr'
  if (lang !== 'fr' && lang !== 'en') return data({ error: 'unsupported_lang', message: 'lang must be fr or en' }, { status: 400 })
  return data(listCategories(lang), { headers: { 'Cache-Control': 'private, max-age=3600' } })
}
