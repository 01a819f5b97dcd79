import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/saved-searches.$id'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { updateSavedSearchCommand } from '#app/.server/saved-searches/commands.ts'
import { getSavedSearch } from '#app/.server/saved-searches/store.ts'
import { getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { listCrmConnections } from '#app/.server/integrations/connections.ts'
import { CRM_PROVIDER_NAMES } from '#app/domain/crm.ts'
import { pageTexts } from '#app/i18n.ts'
import { SavedSearchForm } from '#app/components/saved-searches/saved-search-form.tsx'
import { isFrance } from '#app/domain/enrichment.ts'
import { UpdateSavedSearchSchema } from '#app/domain/saved-search-commands.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'


// "Push every run" speaks of CRM connections (integrations texts).
await pageTexts('integrations')
export const handle: AppHandle = { titleKey: 'pages.savedSearchEdit' }

async function loadOwn(request: Request, context: Route.LoaderArgs['context'], id: string) {
  const user = await requireUser(context, request)
  const saved = await getSavedSearch(user, id)
  // Someone else's, or none: the same 404 (ids are not confirmed to exist).
  if (!saved) throw data(null, { status: 404 })
  return { user, saved }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { saved, user } = await loadOwn(request, context, params.id)
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const category = saved.criteria.sector ? getCategory(saved.criteria.sector) : null
  return {
    saved,
    categoryLabel: category ? labelOf(category, lang) : saved.criteria.sector,
    france: isFrance(saved.criteria.country, saved.criteria.countryCode),
    // The runtime's canonical zones leave out UTC (and any alias a browser may have given): add them so the saved one is offered.
    timeZones: [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', saved.schedule.timeZone])].sort(),
    connections: (await listCrmConnections(user)).map((connection) => ({ id: connection.id, name: `${CRM_PROVIDER_NAMES[connection.provider]} · ${connection.label}` })),
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, saved } = await loadOwn(request, context, params.id)
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const submission = parseWithZod(await request.formData(), { schema: UpdateSavedSearchSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const updated = await updateSavedSearchCommand(user, saved.id, submission.value, { lang })
  if (!updated.ok && updated.reason === 'no_enrichment') return data({ result: submission.reply({ fieldErrors: { options: ['savedSearches.errors.noEnrichment'] } }) }, { status: 400 })
  if (!updated.ok && updated.reason === 'watch_schedule') return data({ result: submission.reply({ fieldErrors: { scheduleKind: ['savedSearches.errors.watchSchedule'] } }) }, { status: 400 })
  if (!updated.ok) throw data(null, { status: 404 })
  throw redirect('/saved-searches?updated=1')
}

export default function SavedSearchEditRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const { saved, categoryLabel, france, timeZones, connections } = loaderData
  const place = [saved.criteria.city, saved.criteria.department, saved.criteria.region, saved.criteria.country].filter(Boolean).join(' · ')
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/saved-searches">{t('savedSearches.editPage.back')}</BackLink>
      <div>
        <h1 className="text-2xl font-semibold break-words text-slate-900">{t('savedSearches.editPage.title', { name: saved.name })}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {t('savedSearches.editPage.searchLine', { category: categoryLabel || t('search.allSectors'), place })}
        </p>
        <p className="mt-1 text-xs text-slate-500">{t('savedSearches.editPage.searchHint')}</p>
      </div>
      <SavedSearchForm saved={saved} france={france} timeZones={timeZones} connections={connections} lastResult={actionData?.result} />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const back = { backTo: '/saved-searches', backLabel: t('savedSearches.editPage.back') }
  return <RouteErrorCard error={error} title={t('savedSearches.title')} body={t('errorPage.body')} notFound={{ title: t('savedSearches.errors.notFound') }} {...back} />
}
