import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData, useLocation, useNavigation } from 'react-router'
import type { Route } from './+types/search'
import { retryAfterHeaders } from '#app/utils/headers.ts'
import { previewOverLimit } from '#app/.server/search/preview-limit.ts'
import type { AppHandle } from './app-layout.tsx'
import { requireUser, type SessionUser } from '#app/.server/auth.ts'
import { getCreditsSummary, requireCreditsSummary } from '#app/.server/credits.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { labelOf, findCategory, getCategory, listCategories } from '#app/.server/taxonomy/categories.ts'
import { LocationQueryError, searchLevelsWithData, searchLocations } from '#app/.server/search/locations.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { resolveCriteria } from '#app/.server/search/resolve-criteria.ts'
import { paidPositions } from '#app/.server/exports/paid-positions.ts'
import { createExportWithinBudget } from '#app/.server/exports/service.ts'
import { exportFormRefusal, sentExportForm } from '#app/.server/exports/export-form-answer.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { sourceNotices } from '#app/.server/sources/selection.ts'
import type { ExportCostInfo } from '#app/components/exports/export-cost-panel.tsx'
import type { ExportFormState } from '#app/components/exports/export-modal.tsx'
import { LazyExportModal } from '#app/components/search/lazy-export-modal.tsx'
import { LazySaveSearchModal } from '#app/components/saved-searches/lazy-save-search-modal.tsx'
import { saveSearchCommand } from '#app/.server/saved-searches/save-command.ts'
import { EXPORT_NAME_MAX, NO_ENRICHMENT, optionsFromValues } from '#app/domain/enrichment.ts'
import { CreateExportSchema } from '#app/domain/export-commands.ts'
import { PlanModal } from '#app/components/search/plan-modal.tsx'
import { SearchForm, type ServerPickerOptions } from '#app/components/search/search-form.tsx'
import { SearchOutcomePanel, type SearchOutcome } from '#app/components/search/search-outcome.tsx'
import { useRunSearch, useSearchCriteria, type PlanRefusal } from '#app/components/search/use-search-criteria.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { FILTER_FIELDS, NO_FILTERS, readSearchFilters } from '#app/domain/search-filters.ts'
import { SearchFiltersPanel, type FilterValues } from '#app/components/search/search-filters-panel.tsx'
import { env } from '#app/.server/env.server.ts'
import { currentFillRates } from '#app/.server/exports/fill-rates.ts'
import { onlyDialogChanges } from '#app/utils/search-dialogs.ts'
import { criteriaFromSearchParams, levelAvailable, sameSearch, type LocationLevel, type SearchCriteria } from '#app/domain/search.ts'

export const handle: AppHandle = { titleKey: 'pages.search' }

function locationOptions(level: LocationLevel, criteria: SearchCriteria, lang: 'fr' | 'en') {
  try {
    return searchLocations({
      type: level,
      countryName: criteria.country || undefined,
      regionName: criteria.region || undefined,
      departmentName: criteria.department || undefined,
      lang,
    })
  } catch (error) {
    // A parent that does not exist (typed URL) just leaves the level empty.
    if (error instanceof LocationQueryError) return []
    throw error
  }
}

export const headers = retryAfterHeaders

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const t = getInstance(context).t
  const criteria = criteriaFromSearchParams(url.searchParams, searchLevelsWithData)
  // The no-JS form sends the category as typed text; a known label becomes its id.
  const category = criteria.sector ? (getCategory(criteria.sector) ?? findCategory(criteria.sector, lang)) : null
  if (category) criteria.sector = category.id
  const categoryLabel = category ? labelOf(category, lang) : criteria.sector

  // A level is offered once its parent is chosen, or its grandparent when the parent has no data
  // (Germany → Berlin lists Berlin's cities: no departments there).
  const levels = searchLevelsWithData(criteria)
  const levelOptions = (level: LocationLevel) => (levelAvailable(level, criteria, levels) ? locationOptions(level, criteria, lang) : [])
  const serverOptions: ServerPickerOptions = {
    country: locationOptions('country', criteria, lang),
    region: levelOptions('region'),
    department: levelOptions('department'),
    city: levelOptions('city'),
    levels: { country: criteria.country, region: criteria.region, withData: levels },
  }

  const filtersRead = readSearchFilters(url.searchParams)
  const { plan, remaining } = await getCreditsSummary(user)
  let search: SearchOutcome | null = null
  let france = false
  let exportPlaceIds: string[] = []
  let status = 200
  const headers = new Headers()
  const overLimit = url.searchParams.get('run') === '1' ? await previewOverLimit(context, user.id, headers) : null
  if (overLimit) {
    search = { status: 'error', message: overLimit.message }
    status = overLimit.status
  } else if (url.searchParams.get('run') === '1' && !filtersRead.ok) {
    search = { status: 'error', message: t(`search.filters.invalid.${filtersRead.field}`) }
    status = 400
  } else if (url.searchParams.get('run') === '1') {
    // The plan decides what the search may return: an unreadable plan is a 503, never the free trial's rules.
    const decidingPlan = (await requireCreditsSummary(user)).plan
    // The preview's upstream calls count against this account's fair share (app/.server/limits/account.ts).
    const outcome = await onBehalfOf(user.workspace.id, () => runPreview(criteria, { lang, plan: decidingPlan, signal: request.signal, filters: filtersRead.ok ? filtersRead.filters : NO_FILTERS }))
    if (outcome.ok) {
      search = { status: 'ok', results: outcome.results, source: outcome.source, count: outcome.count }
      france = outcome.france
      exportPlaceIds = outcome.exportPlaceIds
    } else if (outcome.validation && !outcome.validation.ok && outcome.validation.reason === 'plan') {
      search = { status: 'plan', message: t(outcome.messageKey), modalKey: outcome.validation.modalKey }
      status = outcome.status
    } else {
      search = { status: 'error', message: t(outcome.messageKey), ...(outcome.field ? { field: outcome.field } : {}) }
      status = outcome.status
    }
  }
  // The "Enrich and export" modal, reachable by URL so it also opens without JavaScript.
  const exportForm =
    url.searchParams.get('export') === '1' && search?.status === 'ok'
      ? {
          idempotencyKey: randomUUID(),
          credits: remaining,
          cost: await exportCostInfo(user, search, exportPlaceIds),
          france,
          defaultName: searchName(categoryLabel || t('search.allSectors'), criteria),
        }
      : null
  // "Save this search", reachable by URL too (so it opens without JavaScript).
  const saveForm = url.searchParams.get('save') === '1' && search?.status === 'ok' ? { france, defaultName: searchName(categoryLabel || t('search.allSectors'), criteria) } : null
  return data(
    {
      criteria,
      categoryLabel,
      exportForm,
      saveForm,
      categories: listCategories(lang).map(({ id, label }) => ({ id, label })),
      serverOptions,
      plan,
      source: getLeadSource().name,
      // Why the data is what it is when LEADS_SOURCE=auto could not reach a real service at start-up.
      sourceNotices: sourceNotices(),
      search,
      // As typed (not as parsed), so a refused value stays in its field.
      filterValues: Object.fromEntries(FILTER_FIELDS.map((field) => [field, url.searchParams.get(field) ?? ''])) as FilterValues,
    },
    { status, headers },
  )
}

/** The export modal's figures for this preview. */
async function exportCostInfo(user: SessionUser, search: Extract<SearchOutcome, { status: 'ok' }>, exportPlaceIds: string[]): Promise<ExportCostInfo> {
  return {
    matches: search.count,
    exportCap: env.EXPORT_MAX_LEADS,
    fillRates: await currentFillRates(),
    // Never pay twice, quoted: what this user already paid for among the businesses the export would take.
    paid: await paidPositions(user, search.source, exportPlaceIds, env.ENRICHMENT_REUSE_DAYS),
    reuseDays: env.ENRICHMENT_REUSE_DAYS,
  }
}

/** "Bakeries – Brest": the default name of an export or a saved search of this search. */
function searchName(category: string, criteria: SearchCriteria): string {
  return [category, criteria.city || criteria.department || criteria.region || criteria.country].filter(Boolean).join(' – ').slice(0, EXPORT_NAME_MAX)
}

/** The export's cap and filters: a cap above the export limit is refused under its field, bad filters above the form. */
function exportLimits(formData: FormData, maxLeads: number | undefined, t: (key: string, options?: Record<string, unknown>) => string) {
  const filters = readSearchFilters(new URLSearchParams(FILTER_FIELDS.map((field) => [field, String(formData.get(field) ?? '')])))
  if (!filters.ok) return { ok: false as const, error: { error: t(`search.filters.invalid.${filters.field}`) } }
  return { ok: true as const, maxLeads: maxLeads ?? null, filters: filters.filters }
}

/** "Enrich and export" (the search page's modal): parsed with the schema the modal validates with. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const formData = await request.formData()
  if (formData.get('intent') === 'save-search') {
    const saved = await saveSearchCommand({ user, formData, lang, t })
    if (!saved.ok) return data({ save: saved.state }, { status: saved.status })
    throw redirect(`/saved-searches?saved=${saved.id}`)
  }
  if (formData.get('intent') !== 'create-export') {
    return data({ name: '', options: NO_ENRICHMENT, error: t('errorPage.badRequest') } satisfies ExportFormState, { status: 400 })
  }
  // The criteria are the search's own fields, read by the search's own schema.
  const criteria = criteriaFromSearchParams(
    new URLSearchParams([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    searchLevelsWithData,
  )
  // Resolved once for the whole command: the form's options and createExport read the same location.
  const resolution = resolveCriteria(criteria)
  const france = resolution.ok && resolution.criteria.france
  const submission = parseWithZod(formData, { schema: CreateExportSchema })
  // Without JavaScript, "Recalculate" posts the modal's choices: they come back as sent, with the figures for them.
  if (formData.get('recalculate') === '1') return data(sentExportForm(submission.payload, france) satisfies ExportFormState)
  // The name's own rules first, as the form checks them (400 and the re-rendered form, message under the field).
  if (submission.status !== 'success') return data({ ...sentExportForm(submission.payload, france), result: submission.reply() } satisfies ExportFormState, { status: 400 })
  const { name } = submission.value
  const options = optionsFromValues(submission.value.options, { france })
  const maxLeads = String(formData.get('maxLeads') ?? '').trim()
  const limits = exportLimits(formData, submission.value.maxLeads, t)
  if (!limits.ok) return data({ name, options, maxLeads, ...limits.error } satisfies ExportFormState, { status: 400 })
  if (!resolution.ok) return data({ name, options, maxLeads, code: 'invalid_location', error: t(resolution.messageKey) } satisfies ExportFormState, { status: 400 })
  const idempotencyKey = submission.value.idempotencyKey || randomUUID()
  const created = await createExportWithinBudget({ user, name, criteria: resolution.criteria, enrichmentOptions: options, idempotencyKey, lang, maxLeads: limits.maxLeads, filters: limits.filters, onlyNew: submission.value.onlyNew })
  if (created.refused) return exportFormRefusal(context, { name, options, maxLeads }, created)
  const result = created.result
  if (!result.ok) return exportFormRefusal(context, { name, options, maxLeads }, { result })
  throw redirect(`/exports/${result.exportId}?started=1`)
}

/** The search's URL without one parameter (closing a modal opened by URL). */
function searchWithout(search: string, key: string): string {
  return new URLSearchParams([...new URLSearchParams(search)].filter(([name]) => name !== key)).toString()
}

export default function SearchRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const { criteria, categoryLabel, onCriteriaChange } = useSearchCriteria(loaderData)
  const [planModal, setPlanModal] = useState<PlanRefusal | null>(null)
  const onSubmit = useRunSearch(criteria, loaderData.plan, setPlanModal)
  const actionData = useActionData<typeof action>()
  const saveState = actionData && 'save' in actionData ? actionData.save : undefined
  const exportState = actionData && !('save' in actionData) ? actionData : undefined

  // Opening or closing a dialog reloads the same search: its results (and the link that opened the dialog, which
  // gets focus back) stay on screen.
  const searching =
    navigation.state === 'loading' &&
    navigation.location.pathname === '/' &&
    new URLSearchParams(navigation.location.search).get('run') === '1' &&
    !onlyDialogChanges(location.search, navigation.location.search)
  const lastSearch = loaderData.search
  const current = sameSearch(criteria, loaderData.criteria)
  const serverPlanModal = lastSearch?.status === 'plan' && current ? lastSearch : null
  // Closing the plan modal keeps the search and its filters.
  const closeHref = `${location.pathname}?${new URLSearchParams(Object.entries({ ...loaderData.criteria, ...loaderData.filterValues }).filter(([, v]) => v) as Array<[string, string]>)}`
  const exportForm = loaderData.exportForm

  return (
    <section className="mx-auto max-w-7xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('search.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('search.subtitle')}</p>
      </div>
      {loaderData.source === 'demo' ? (
        <Alert tone={loaderData.sourceNotices.osmUnreachable ? 'warning' : 'info'} id="source-notice">
          <span className="font-semibold">{loaderData.sourceNotices.osmUnreachable ? t('search.osmUnreachable') : t('app.demoData')}.</span> {t('search.demoNotice')}
        </Alert>
      ) : loaderData.sourceNotices.registryUnreachable ? (
        <Alert tone="warning" id="source-notice">
          {t('search.registryUnreachable')}
        </Alert>
      ) : null}
      <SearchForm
        criteria={criteria}
        onCriteriaChange={onCriteriaChange}
        categoryLabel={categoryLabel}
        categories={loaderData.categories}
        serverOptions={loaderData.serverOptions}
        onSubmit={onSubmit}
        pending={searching}
        filters={<SearchFiltersPanel values={loaderData.filterValues} />}
        locationError={lastSearch?.status === 'error' && lastSearch.field && current ? lastSearch.message : undefined}
      />
      <SearchOutcomePanel search={lastSearch} current={current} searching={searching} pageSearch={location.search} />
      {exportForm && lastSearch && current && !searching ? (
        <LazyExportModal
          criteria={loaderData.criteria}
          france={exportForm.france}
          idempotencyKey={exportForm.idempotencyKey}
          credits={exportForm.credits}
          cost={exportForm.cost}
          filters={loaderData.filterValues}
          defaultName={exportForm.defaultName}
          closeHref={`${location.pathname}?${searchWithout(location.search, 'export')}`}
          last={exportState ?? undefined}
        />
      ) : null}
      {loaderData.saveForm && lastSearch && current && !searching ? (
        <LazySaveSearchModal
          criteria={loaderData.criteria}
          filters={loaderData.filterValues}
          france={loaderData.saveForm.france}
          defaultName={loaderData.saveForm.defaultName}
          closeHref={`${location.pathname}?${searchWithout(location.search, 'save')}`}
          last={saveState}
        />
      ) : null}
      {planModal ? (
        <PlanModal message={t(planModal.messageKey)} modalKey={planModal.modalKey} onClose={() => setPlanModal(null)} closeHref={closeHref} />
      ) : serverPlanModal ? (
        <PlanModal message={serverPlanModal.message} modalKey={serverPlanModal.modalKey} closeHref={closeHref} />
      ) : null}
    </section>
  )
}
