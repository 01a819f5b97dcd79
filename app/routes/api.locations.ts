import { data } from 'react-router'
import type { Route } from './+types/api.locations'
import { requireApiUser } from '#app/.server/api.ts'
import { LocationQueryError, searchLocations } from '#app/.server/search/locations.ts'
import { getLocale } from '#app/.server/i18n.ts'

/**
 * GET /api/locations?type=country|region|department|city&query=&countryName=&regionName=&departmentName=
 * → [{name, code}]. Unknown type or a missing/unknown parent is a 400 with a message.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(context)
  const params = new URL(request.url).searchParams
  const lang = params.get('lang') === 'fr' || params.get('lang') === 'en' ? (params.get('lang') as 'fr' | 'en') : (getLocale(context) as 'fr' | 'en')
  try {
    const options = searchLocations({
      type: params.get('type') ?? '',
      query: params.get('query') ?? undefined,
      countryName: params.get('countryName') ?? undefined,
      regionName: params.get('regionName') ?? undefined,
      departmentName: params.get('departmentName') ?? undefined,
      lang,
    })
    return data(options, { headers: { 'Cache-Control': 'private, max-age=3600' } })
  } catch (error) {
    if (error instanceof LocationQueryError) {
      return data({ error: error.code, message: `${error.code.replace('_', ' ')}: ${error.field}` }, { status: 400 })
    }
    throw error
  }
}
