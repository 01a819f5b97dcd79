import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Link, redirect, useActionData, useLocation, useNavigation, useSubmit } from 'react-router'
import type { Route } from './+types/search'
import { retryAfterHeaders } from '#app/utils/headers.ts'
import { consumeLimit, refusalAnswer, refused } from '#app/.server/rate-limit.ts'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { labelOf, findCategory, getCategory, listCategories } from '#app/.server/taxonomy/categories.ts'
import { LocationQueryError, searchLevelsWithData, searchLocations } from '#app/.server/search/locations.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { ExportModal, type ExportFormState } from '#app/components/exports/export-modal.tsx'
import { applyToggleRules, ENRICHMENT_TYPES, EXPORT_NAME_MAX, isFrance, NO_ENRICHMENT, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { ExportNameSchema } from '#app/domain/exports.ts'
import { exportErrorMessageKey } from '#app/utils/export-errors.ts'
import { EmptyResults, ResultsSkeleton, ResultsTable, SearchError } from '#app/components/search/results.tsx'
import { SearchForm, type ServerPickerOptions } from '#app/components/search/search-form.tsx'
import { knownLocationLevels } from '#app/components/search/use-picker-options.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Modal } from '#app/components/ui/modal.tsx'
import { criteriaFromSearchParams, levelAvailable, sameSearch, validateSearch, type LocationLevel, type PreviewLead, type SearchCriteria } from '#app/domain/search.ts'

export const handle: AppHandle = { titleKey: 'pages.search' }

type SearchOutcome =
  | { status: 'ok'; results: PreviewLead[]; source: string }
  | { status: 'error'; message: string }
  | { status: 'plan'; message: string; modalKey: string }

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

  const { plan, remaining } = await getCreditsSummary(user)
  let search: SearchOutcome | null = null
  let status = 200
  const headers = new Headers()
  const overLimit = url.searchParams.get('run') === '1' ? refused(await consumeLimit('preview', user.id)) : undefined
  if (overLimit) {
    const refusal = refusalAnswer(context, overLimit)
    search = { status: 'error', message: refusal.message }
    status = refusal.status
    headers.set('Retry-After', refusal.headers['Retry-After'])
  } else if (url.searchParams.get('run') === '1') {
    const outcome = await runPreview(criteria, { lang, plan, signal: request.signal })
    if (outcome.ok) search = { status: 'ok', results: outcome.results, source: outcome.source }
    else if (outcome.validation && !outcome.validation.ok && outcome.validation.reason === 'plan') {
      search = { status: 'plan', message: t(outcome.messageKey), modalKey: outcome.validation.modalKey }
      status = outcome.status
    } else {
      search = { status: 'error', message: t(outcome.messageKey) }
      status = outcome.status
    }
  }
  // The "Enrich and export" modal, reachable by URL so it also opens without JavaScript.
  const exportForm =
    url.searchParams.get('export') === '1' && search?.status === 'ok'
      ? {
          idempotencyKey: randomUUID(),
          credits: remaining,
          france: isFrance(criteria.country),
          defaultName: [categoryLabel || t('search.allSectors'), criteria.city || criteria.department || criteria.region || criteria.country].filter(Boolean).join(' – ').slice(0, EXPORT_NAME_MAX),
        }
      : null
  return data(
    {
      criteria,
      categoryLabel,
      exportForm,
      categories: listCategories(lang).map(({ id, label }) => ({ id, label })),
      serverOptions,
      plan,
      source: getLeadSource().name,
      search,
    },
    { status, headers },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const formData = await request.formData()
  if (formData.get('intent') !== 'create-export') {
    return data({ name: '', options: NO_ENRICHMENT, error: t('errorPage.badRequest') } satisfies ExportFormState, { status: 400 })
  }
  const criteria = criteriaFromSearchParams(
    new URLSearchParams([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    searchLevelsWithData,
  )
  const chosen = new Set(formData.getAll('options').map(String))
  const france = isFrance(criteria.country)
  const options: EnrichmentOptions = applyToggleRules(
    Object.fromEntries(ENRICHMENT_TYPES.map((type) => [type, chosen.has(type)])) as EnrichmentOptions,
    { france },
  )
  const name = String(formData.get('name') ?? '').trim()
  const idempotencyKey = String(formData.get('idempotencyKey') ?? '') || randomUUID()
  // The name's own rules first, as the form checks them (400 and the re-rendered form, message under the field).
  const submission = parseWithZod(formData, { schema: ExportNameSchema })
  if (submission.status !== 'success') return data({ name, options, result: submission.reply() } satisfies ExportFormState, { status: 400 })
  const overLimit = refused(await consumeLimit('exportCreate', user.id))
  if (overLimit) {
    const { status, message, headers } = refusalAnswer(context, overLimit)
    return data({ name, options, error: message } satisfies ExportFormState, { status, headers })
  }
  const result = await createExport({ user, name, criteria, enrichmentOptions: options, idempotencyKey, lang })
  if (!result.ok) {
    const message = t(result.messageKey ?? exportErrorMessageKey(result.code, 'exports.errors.createFailed'))
    const nameError = result.code === 'name_required' || result.code === 'name_too_long'
    return data({ name, options, code: result.code, error: nameError ? undefined : message, fieldError: nameError ? message : undefined } satisfies ExportFormState, { status: result.status })
  }
  throw redirect('/exports')
}

export default function SearchRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const submit = useSubmit()
  const navigation = useNavigation()
  const location = useLocation()
  const [criteria, setCriteria] = useState(loaderData.criteria)
  const [categoryLabel, setCategoryLabel] = useState(loaderData.categoryLabel)
  const [planModal, setPlanModal] = useState<{ messageKey: string; modalKey: string } | null>(null)

  // A new server answer (navigation, reload) resets the form to what the URL says. Not the first
  // one: the form starts from it, and what was chosen before hydration must stay over it.
  const answered = useRef(loaderData.criteria)
  useEffect(() => {
    if (answered.current === loaderData.criteria) return
    answered.current = loaderData.criteria
    setCriteria(loaderData.criteria)
    setCategoryLabel(loaderData.categoryLabel)
  }, [loaderData.criteria, loaderData.categoryLabel])

  // SPEC §4: changing the interface language clears the chosen category.
  const [language, setLanguage] = useState(i18n.language)
  useEffect(() => {
    if (language === i18n.language) return
    setLanguage(i18n.language)
    setCriteria((current) => ({ ...current, sector: '' }))
    setCategoryLabel('')
  }, [i18n.language, language])

  const searching = navigation.state === 'loading' && navigation.location.pathname === '/' && new URLSearchParams(navigation.location.search).get('run') === '1'
  const lastSearch = loaderData.search
  const showResults = lastSearch && sameSearch(criteria, loaderData.criteria) && !searching
  const serverPlanModal = lastSearch?.status === 'plan' && sameSearch(criteria, loaderData.criteria) ? lastSearch : null
  const closeHref = `${location.pathname}?${new URLSearchParams(Object.entries(loaderData.criteria).filter(([, v]) => v) as Array<[string, string]>)}`

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    // With JavaScript the plan rule is checked before any request: the modal opens in place. Like
    // the server, it does not require a level the chosen place has no data for (Germany has no
    // departments); a level whose list is still loading is left to the server to judge.
    const levels = knownLocationLevels(criteria, i18n.language)
    const validation = validateSearch(criteria, loaderData.plan, levels)
    if (!validation.ok && !(validation.reason === 'plan' && levels[validation.missing] === undefined)) {
      event.preventDefault()
      if (validation.reason === 'plan') setPlanModal({ messageKey: validation.messageKey, modalKey: validation.modalKey })
      return
    }
    event.preventDefault()
    const formData = new FormData(event.currentTarget)
    formData.set('run', '1')
    for (const [key, value] of [...formData.entries()]) if (value === '') formData.delete(key)
    submit(formData, { method: 'get', action: '/' })
  }

  const exportState = useActionData<typeof action>()
  const exportForm = loaderData.exportForm
  const modal = planModal ?? (serverPlanModal ? { messageKey: '', modalKey: serverPlanModal.modalKey, message: serverPlanModal.message } : null)

  return (
    <section className="mx-auto max-w-7xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('search.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('search.subtitle')}</p>
      </div>
      {loaderData.source === 'demo' ? (
        <Alert tone="info">
          <span className="font-semibold">{t('app.demoData')}.</span> {t('search.demoNotice')}
        </Alert>
      ) : null}
      <SearchForm
        criteria={criteria}
        onCriteriaChange={(next, label) => {
          setCriteria(next)
          if (label !== undefined) setCategoryLabel(label)
        }}
        categoryLabel={categoryLabel}
        categories={loaderData.categories}
        serverOptions={loaderData.serverOptions}
        onSubmit={onSubmit}
        pending={searching}
      />
      {searching ? (
        <ResultsSkeleton />
      ) : lastSearch && !showResults && lastSearch.status === 'ok' ? (
        <Alert tone="warning">{t('search.staleResults')}</Alert>
      ) : showResults && lastSearch.status === 'error' ? (
        <SearchError message={lastSearch.message} />
      ) : showResults && lastSearch.status === 'ok' ? (
        lastSearch.results.length === 0 ? (
          <EmptyResults titleKey="search.emptyTitle" bodyKey="search.emptyBody" />
        ) : (
          <div className="space-y-3">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <h2 className="text-base font-semibold text-slate-900">
                {t('search.results')} <span className="font-normal text-slate-500">· {t('search.resultsCount', { count: lastSearch.results.length })}</span>
              </h2>
              <Link to={`/?${new URLSearchParams(location.search).toString()}&export=1`} className={buttonClasses()}>
                {t('search.enrichAndExport')}
              </Link>
            </div>
            <ResultsTable results={lastSearch.results} />
            {lastSearch.source === 'osm' ? <p className="text-xs text-slate-500">{t('search.osmAttribution')}</p> : null}
          </div>
        )
      ) : !lastSearch ? (
        <EmptyResults titleKey="search.startTitle" bodyKey="search.startBody" />
      ) : null}
      {exportForm && showResults ? (
        <ExportModal
          criteria={loaderData.criteria}
          france={exportForm.france}
          idempotencyKey={exportForm.idempotencyKey}
          credits={exportForm.credits}
          defaultName={exportForm.defaultName}
          closeHref={`${location.pathname}?${new URLSearchParams([...new URLSearchParams(location.search)].filter(([key]) => key !== 'export'))}`}
          last={exportState ?? undefined}
        />
      ) : null}
      {modal ? (
        <Modal
          title={t('search.plan.modalTitle')}
          onClose={planModal ? () => setPlanModal(null) : undefined}
          size="md"
        >
          <div className="space-y-4">
            <Alert tone="warning">{'message' in modal ? modal.message : t(modal.messageKey)}</Alert>
            <p className="text-sm text-slate-600">{t(modal.modalKey)}</p>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              {planModal ? (
                <Button type="button" variant="secondary" onClick={() => setPlanModal(null)}>
                  {t('search.plan.close')}
                </Button>
              ) : (
                <Link to={closeHref} replace className={buttonClasses({ variant: 'secondary' })}>
                  {t('search.plan.close')}
                </Link>
              )}
              <Link to="/subscription" className={buttonClasses()}>
                {t('search.plan.upgrade')}
              </Link>
            </div>
          </div>
        </Modal>
      ) : null}
    </section>
  )
}

