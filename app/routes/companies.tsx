import { pageTexts } from '#app/i18n.ts'
import { useTranslation } from 'react-i18next'
import { data, Link, useLocation, useNavigation } from 'react-router'
import type { Route } from './+types/companies'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { franceData, findDepartment } from '#app/.server/geo/france.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { consumeLimit, refusalAnswer, refused } from '#app/.server/rate-limit.ts'
import { nafLabelOf, nafOptions } from '#app/.server/registry/companies-query.ts'
import { searchCompanies } from '#app/.server/registry/companies-search.ts'
import { allCategories, labelOf } from '#app/.server/taxonomy/categories.ts'
import { CompaniesForm, type CompaniesFieldErrors } from '#app/components/companies/companies-form.tsx'
import { CompaniesResults } from '#app/components/companies/companies-results.tsx'
import { CoveragePanel } from '#app/components/companies/coverage-panel.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { readCompaniesQuery } from '#app/domain/companies-form.ts'
import { retryAfterHeaders } from '#app/utils/headers.ts'

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
    const overLimit = refused(await consumeLimit('preview', user.id))
    if (overLimit) {
      const refusal = refusalAnswer(context, overLimit)
      search = { status: 'error', message: refusal.message }
      status = refusal.status
      headers.set('Retry-After', refusal.headers['Retry-After'])
    } else if (!read.ok) {
      search = { status: 'error', message: t('companies.errors.invalidFilters') }
      status = 400
    } else {
      const { plan } = await getCreditsSummary(user)
      const outcome = await searchCompanies(read.query, { plan, lang, signal: request.signal })
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
  // The department select sends codes; a name typed in a URL shows as its code when it is known.
  query.department = findDepartment(query.department)?.code ?? query.department
  const { regions, departments } = franceData()
  const collator = new Intl.Collator(lang)
  return data(
    {
      query,
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

export default function CompaniesRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const { search } = loaderData
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
      <CompaniesForm key={location.search} query={loaderData.query} chosenNaf={loaderData.chosenNaf} options={loaderData.options} errors={errors} pending={pending} />
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
          <CompaniesResults total={search.result.total} capped={search.result.capped} establishments={search.result.establishments}>
            {search.result.total > 0 ? <CoveragePanel coverage={search.result.coverage} /> : null}
          </CompaniesResults>
          {/* "Export these companies" (issue 22 item 4) goes here, under the preview and its coverage. */}
        </>
      ) : null}
    </section>
  )
}
