import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { pageTexts } from '#app/i18n.ts'
import { useTranslation } from 'react-i18next'
import { data, Link, redirect, useActionData, useLocation, useNavigation } from 'react-router'
import type { Route } from './+types/companies'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { franceData, findDepartment, findRegion } from '#app/.server/geo/france.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { previewOverLimit } from '#app/.server/search/preview-limit.ts'
import { nafLabelOf, nafOptions } from '#app/.server/registry/companies-query.ts'
import { searchCompanies } from '#app/.server/registry/companies-search.ts'
import { allCategories, findCategory, getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { CompaniesForm, type CompaniesFieldErrors } from '#app/components/companies/companies-form.tsx'
import { CompaniesResults } from '#app/components/companies/companies-results.tsx'
import { CoveragePanel } from '#app/components/companies/coverage-panel.tsx'
import type { ExportFormState } from '#app/components/exports/export-modal.tsx'
import { LazyCompaniesExportModal } from '#app/components/companies/lazy-companies-export-modal.tsx'
import { env } from '#app/.server/env.server.ts'
import { currentFillRates } from '#app/.server/exports/fill-rates.ts'
import { createExportWithinBudget } from '#app/.server/exports/service.ts'
import { exportFormRefusal, sentExportForm } from '#app/.server/exports/export-form-answer.ts'
import { EXPORT_NAME_MAX, NO_ENRICHMENT, optionsFromValues } from '#app/domain/enrichment.ts'
import { CreateRegistryExportSchema } from '#app/domain/export-commands.ts'
import { WatchNewCompaniesSchema } from '#app/domain/saved-search-commands.ts'
import type { RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { saveWatch } from '#app/.server/saved-searches/watch-commands.ts'
import { registryStoreFreshness } from '#app/.server/registry-events/local-search.ts'
import { WatchForm } from '#app/components/companies/watch-form.tsx'
import { StoreSourceNote } from '#app/components/companies/store-source-note.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { readCompaniesQuery } from '#app/domain/companies-form.ts'
import { retryAfterHeaders } from '#app/utils/headers.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { riskFiltersOfForm } from '#app/domain/search-filters.ts'

// This page's texts come with it, not with every page's messages (app/i18n.ts).
await pageTexts('companies')

export const handle: AppHandle = { titleKey: 'pages.companies' }

export const headers = retryAfterHeaders

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const t = getInstance(context).t
  const read = readCompaniesQuery(url.searchParams)
  const query = { ...read.query }
  let nafCodes = query.naf
  let search = null as
    | null
    | { status: 'ok'; result: Extract<Awaited<ReturnType<typeof searchCompanies>>, { ok: true }> }
    | { status: 'error'; message: string; field?: keyof CompaniesFieldErrors; plan?: boolean }
  let status = 200
  const headers = new Headers()
  if (read.run) {
    const overLimit = await previewOverLimit(context, user.id, headers)
    if (overLimit) {
      search = { status: 'error', message: overLimit.message }
      status = overLimit.status
    } else if (!read.ok) {
      search = { status: 'error', message: t('companies.errors.invalidFilters') }
      status = 400
    } else {
      const { plan } = await requireCreditsSummary(user)
      const outcome = await onBehalfOf(user.workspace.id, () => searchCompanies(read.query, { plan, lang, signal: request.signal }))
      nafCodes = outcome.nafCodes
      if (outcome.ok) {
        search = { status: 'ok', result: outcome }
        // The category and the typed activity became checked codes: the form shows them so, and sends them so next time.
        query.sector = ''
        query.nafAdd = ''
      } else {
        search = { status: 'error', message: t(outcome.messageKey), ...(outcome.field && { field: outcome.field }), ...(outcome.plan && { plan: true }) }
        status = outcome.status
      }
    }
  }
  // The pickers show names: a code typed in a URL ("69") shows as its department's name when it is known.
  query.region = findRegion(query.region)?.nom ?? query.region
  query.department = findDepartment(query.department)?.nom ?? query.department
  const { regions, departments } = franceData()
  const collator = new Intl.Collator(lang)
  // "Export these companies", reachable by URL so it also opens without JavaScript.
  const exportForm =
    url.searchParams.get('export') === '1' && search?.status === 'ok' && search.result.total > 0
      ? {
          idempotencyKey: randomUUID(),
          credits: (await requireCreditsSummary(user)).remaining,
          filters: JSON.stringify(search.result.filters),
          defaultName: exportName(nafCodes, query.city || query.department || query.region, lang),
          cost: {
            matches: { value: search.result.total, exact: !search.result.capped },
            exportCap: env.EXPORT_MAX_LEADS,
            fillRates: await currentFillRates(),
          },
        }
      : null
  const { store, watchForm } = await watchAndStore(search?.status === 'ok' ? search.result.filters : null, url, exportName(nafCodes, query.city || query.department || query.region, lang))
  // The category picker shows the category's label, whichever way it was sent (its id from the combobox, a label typed).
  const category = query.sector ? (getCategory(query.sector) ?? findCategory(query.sector, lang)) : undefined
  return data(
    {
      exportForm,
      watchForm,
      store,
      query,
      sectorLabel: category ? labelOf(category, lang) : query.sector,
      chosenNaf: nafCodes.map((code) => ({ code, label: nafLabelOf(code) })),
      options: {
        categories: allCategories()
          .filter((category) => category.naf.length > 0)
          .map((category) => labelOf(category, lang))
          .sort(collator.compare),
        naf: nafOptions(),
        regions: regions.map((r) => ({ code: r.code, name: r.nom })).sort((a, b) => collator.compare(a.name, b.name)),
        departments: departments.map((d) => ({ code: d.code, name: d.nom, region: d.region })),
      },
      search,
    },
    { status, headers },
  )
}

/**
 * "Created after" reads the local registry store: the page says so, with the last day imported. "Watch new companies"
 * opens by URL (?watch=1), so it works without JavaScript too.
 */
async function watchAndStore(filters: RegistryFiltersInput | null, url: URL, defaultName: string) {
  const store = filters?.createdAfter ? { createdAfter: filters.createdAfter, importedUpTo: await registryStoreFreshness() } : null
  const watchForm = filters && url.searchParams.get('watch') === '1' ? { filters: JSON.stringify(filters), defaultName } : null
  return { store, watchForm }
}

/** "Boulangeries – 29": the activity (or the first code) and the place, as the search page names its exports. */
function exportName(nafCodes: string[], place: string, lang: 'fr' | 'en'): string {
  const activity = nafCodes.length === 1 ? (nafLabelOf(nafCodes[0]!) ?? nafCodes[0]) : nafCodes.length ? nafCodes.join(', ') : lang === 'fr' ? 'Entreprises' : 'Companies'
  return [activity, place].filter(Boolean).join(' – ').slice(0, EXPORT_NAME_MAX)
}

/** The modal's fields as they were sent, so a refused form renders again as the user left it. */
const sentForm = (payload: Record<string, unknown>) => sentExportForm(payload, true)

/** "Export these companies": the registry's establishments of the page's filters, matched to the map (service.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const formData = await request.formData()
  if (formData.get('intent') === 'watch-new-companies') return watchAction(user, formData, { lang, t })
  if (formData.get('intent') !== 'create-registry-export') {
    return data({ name: '', options: NO_ENRICHMENT, error: t('errorPage.badRequest') } satisfies ExportFormState, { status: 400 })
  }
  const submission = parseWithZod(formData, { schema: CreateRegistryExportSchema })
  // Without JavaScript, "Recalculate" posts the modal's choices: they come back as sent, with the figures for them.
  if (formData.get('recalculate') === '1') return data(sentForm(submission.payload) satisfies ExportFormState)
  if (submission.status !== 'success') {
    const filtersError = submission.error?.filters?.[0]
    return data(
      { ...sentForm(submission.payload), result: submission.reply(), ...(filtersError && { error: t(filtersError) }) } satisfies ExportFormState,
      { status: 400 },
    )
  }
  const { name, filters } = submission.value
  const options = optionsFromValues(submission.value.options, { france: true })
  const maxLeads = String(formData.get('maxLeads') ?? '').trim()
  const created = await createExportWithinBudget({
    user,
    name,
    criteria: { sector: '', country: '', region: '', department: '', city: '' },
    registry: filters,
    enrichmentOptions: options,
    idempotencyKey: submission.value.idempotencyKey || randomUUID(),
    lang,
    maxLeads: submission.value.maxLeads ?? null,
    onlyNew: submission.value.onlyNew,
    filters: riskFiltersOfForm(formData),
  })
  if (created.refused) return exportFormRefusal(context, { name, options, maxLeads }, created)
  const result = created.result
  if (!result.ok) return exportFormRefusal(context, { name, options, maxLeads }, { result })
  throw redirect(`/exports/${result.exportId}?started=1`)
}

/** "Watch new companies": the page's filters saved as a new_companies saved search (saveWatch), then its list. */
async function watchAction(user: Awaited<ReturnType<typeof requireUser>>, formData: FormData, { lang, t }: { lang: 'fr' | 'en'; t: (key: string, options?: Record<string, unknown>) => string }) {
  const submission = parseWithZod(formData, { schema: WatchNewCompaniesSchema })
  if (submission.status !== 'success') {
    const filtersError = submission.error?.filters?.[0]
    return data({ watchForm: { result: submission.reply(), ...(filtersError && { error: t(filtersError) }) } }, { status: 400 })
  }
  const saved = await saveWatch(user, submission.value, { lang })
  if (saved.ok) throw redirect('/saved-searches?saved=1')
  const error = saved.reason === 'location' ? t(saved.messageKey) : t('savedSearches.errors.limitReached', { count: saved.limit, plan: t(`plans.${saved.plan}`) })
  return data({ watchForm: { result: submission.reply(), error } }, { status: saved.reason === 'location' ? 400 : 403 })
}

/** The page's URL with or without one parameter (a modal opened by URL). */
function withParam(search: string, key: string, value: string | null): string {
  const params = new URLSearchParams([...new URLSearchParams(search)].filter(([name]) => name !== key && name !== 'index'))
  if (value !== null) params.set(key, value)
  return `/companies?${params}`
}

export default function CompaniesRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const { search, exportForm, watchForm, store } = loaderData
  const answer = useActionData<typeof action>()
  const last = answer && !('watchForm' in answer) ? answer : undefined
  const watchAnswer = answer && 'watchForm' in answer ? answer.watchForm : undefined
  const pending = navigation.state === 'loading' && navigation.location.pathname === '/companies'
  const errors: CompaniesFieldErrors = search?.status === 'error' && search.field ? { [search.field]: search.message } : {}
  const demo = search?.status === 'ok' && search.result.establishments.some((e) => e.demo)
  return (
    <section className="mx-auto max-w-7xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('companies.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('companies.subtitle')}</p>
      </div>
      {demo ? (
        <Alert tone="info" id="companies-demo-notice">
          <span className="font-semibold">{t('app.demoData')}.</span> {t('companies.demoNotice')}
        </Alert>
      ) : null}
      {/* A new answer (another search) starts the form again from what the server read. */}
      <CompaniesForm key={location.search} query={loaderData.query} sectorLabel={loaderData.sectorLabel} chosenNaf={loaderData.chosenNaf} options={loaderData.options} errors={errors} pending={pending} />
      {search?.status === 'error' && !search.field ? (
        <Alert tone="error" id="companies-error">
          {search.message}
          {search.plan ? (
            <>
              {' '}
              <Link to="/subscription" className={buttonClasses({ variant: 'link' })}>
                {t('companies.errors.seePlans')}
              </Link>
            </>
          ) : null}
        </Alert>
      ) : null}
      {search?.status === 'ok' ? (
        <>
          {store ? <StoreSourceNote createdAfter={store.createdAfter} importedUpTo={store.importedUpTo} /> : null}
          <CompaniesResults total={search.result.total} capped={search.result.capped} establishments={search.result.establishments}>
            {search.result.total > 0 ? <CoveragePanel coverage={search.result.coverage} /> : null}
          </CompaniesResults>
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            {/* A watch of these filters delivers what is created from now on: offered even when nothing is yet. */}
            <Link to={withParam(location.search, 'watch', '1')} preventScrollReset className={buttonClasses({ variant: 'secondary' })} data-testid="companies-watch">
              {t('companies.watch.open')}
            </Link>
            {search.result.total > 0 ? (
              <Link to={withParam(location.search, 'export', '1')} preventScrollReset className={buttonClasses()} data-testid="companies-export">
                {t('companies.export.open')}
              </Link>
            ) : null}
          </div>
          {watchForm ? (
            <WatchForm filters={watchForm.filters} defaultName={watchForm.defaultName} closeHref={withParam(location.search, 'watch', null)} lastResult={watchAnswer?.result} error={watchAnswer && 'error' in watchAnswer ? watchAnswer.error : undefined} />
          ) : null}
          {exportForm ? (
            <LazyCompaniesExportModal
              filters={exportForm.filters}
              idempotencyKey={exportForm.idempotencyKey}
              credits={exportForm.credits}
              cost={exportForm.cost}
              defaultName={exportForm.defaultName}
              closeHref={withParam(location.search, 'export', null)}
              last={last}
            />
          ) : null}
        </>
      ) : null}
    </section>
  )
}
