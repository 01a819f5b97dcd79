import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Link, redirect, useActionData, useLocation } from 'react-router'
import type { Route } from './+types/saved-searches'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { refusalAnswer } from '#app/.server/rate-limit.ts'
import { runSavedSearchWithinBudget } from '#app/.server/saved-searches/run.ts'
import { deleteSavedSearch, listSavedSearches, setPaused } from '#app/.server/saved-searches/store.ts'
import { readMemberChoices } from '#app/.server/workspaces/team-view.ts'
import { MemberFilter } from '#app/components/team/member-filter.tsx'
import { getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { DeleteSavedSearchModal } from '#app/components/saved-searches/delete-saved-search-modal.tsx'
import { SavedSearchCard } from '#app/components/saved-searches/saved-search-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { EXPORT_ERROR_STATUS, exportErrorMessageKey } from '#app/domain/exports.ts'
import { SavedSearchActionSchema } from '#app/domain/saved-search-commands.ts'
import { retryAfterHeaders } from '#app/utils/headers.ts'

export const handle: AppHandle = { titleKey: 'pages.savedSearches' }
export const headers = retryAfterHeaders

const NOTICES = ['saved', 'updated', 'deleted', 'paused', 'resumed'] as const

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const members = await readMemberChoices(user)
  const member = members.find((choice) => choice.id === url.searchParams.get('member'))?.id ?? ''
  const searches = await listSavedSearches(user, { member: member || undefined })
  return {
    searches: searches.map((saved) => {
      const category = saved.criteria.sector ? getCategory(saved.criteria.sector) : null
      // A key per card and render: a double click on "Run now" starts one run.
      return { ...saved, categoryLabel: category ? labelOf(category, lang) : saved.criteria.sector, runKey: randomUUID() }
    }),
    notice: NOTICES.find((notice) => url.searchParams.has(notice)) ?? null,
    confirmDelete: url.searchParams.get('delete'),
    members,
    member,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: SavedSearchActionSchema })
  if (submission.status !== 'success') return data({ id: null, error: t('errorPage.badRequest') }, { status: 400 })
  const command = submission.value
  const notFound = () => data({ id: command.id, error: t('savedSearches.errors.notFound') }, { status: 404 })
  if (command.intent === 'delete') {
    if (!(await deleteSavedSearch(user, command.id))) return notFound()
    throw redirect('/saved-searches?deleted=1')
  }
  if (command.intent === 'pause' || command.intent === 'resume') {
    if (!(await setPaused(user, command.id, command.intent === 'pause'))) return notFound()
    throw redirect(`/saved-searches?${command.intent === 'pause' ? 'paused' : 'resumed'}=1`)
  }
  const run = await runSavedSearchWithinBudget({ user, id: command.id, idempotencyKey: command.idempotencyKey || randomUUID() })
  if (run.refused) {
    const { status, message, headers } = refusalAnswer(context, run.refused)
    return data({ id: command.id, error: message }, { status, headers })
  }
  const result = run.result
  if (result.ok) throw redirect(`/exports/${result.exportId}?started=1`)
  if (result.code === 'not_found') return notFound()
  const reason = result.messageKey ? t(result.messageKey) : t(`savedSearches.refusals.${result.code}`, { defaultValue: t(exportErrorMessageKey(result.code, 'exports.errors.createFailed')) })
  return data({ id: command.id, error: t('savedSearches.errors.runFailed', { reason }) }, { status: result.code === 'budget_too_small' ? 409 : EXPORT_ERROR_STATUS[result.code] })
}

export default function SavedSearchesRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const location = useLocation()
  const { searches, notice, confirmDelete, members, member } = loaderData
  const deleting = searches.find((saved) => saved.id === confirmDelete)
  return (
    <section className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('savedSearches.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('savedSearches.subtitle')}</p>
        </div>
        <Link to="/" className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          {t('savedSearches.goSearch')}
        </Link>
      </div>
      {notice && !actionData ? <Alert tone="success">{t(`savedSearches.notices.${notice}`)}</Alert> : null}
      {actionData?.error && !actionData.id ? <Alert tone="error">{actionData.error}</Alert> : null}
      <MemberFilter members={members} member={member} />
      {searches.length === 0 ? (
        <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
          <h2 className="text-base font-semibold text-slate-900">{t('savedSearches.emptyTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('savedSearches.emptyBody')}</p>
        </div>
      ) : (
        <ul className="space-y-4" aria-label={t('savedSearches.listLabel')}>
          {searches.map((saved) => (
            <SavedSearchCard key={saved.id} saved={saved} error={actionData?.id === saved.id ? actionData.error : undefined} />
          ))}
        </ul>
      )}
      {deleting ? <DeleteSavedSearchModal id={deleting.id} name={deleting.name} closeHref={location.pathname} /> : null}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  return <RouteErrorCard error={error} title={t('savedSearches.title')} body={t('errorPage.body')} backTo="/saved-searches" backLabel={t('common.tryAgain')} />
}
