import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/lists.$id'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { confirmListMapping, LIST_COMMAND_STATUS } from '#app/.server/lists/commands.ts'
import { readListMapping } from '#app/.server/lists/view.ts'
import { refusalAnswer } from '#app/.server/rate-limit.ts'
import { ListMappingForm } from '#app/components/lists/mapping-form.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { ListMappingSchema, type ListColumnKind } from '#app/domain/list-columns.ts'
import { pageTexts } from '#app/i18n.ts'
import { numberFormat } from '#app/utils/number-format.ts'

await pageTexts('lists')

export const handle: AppHandle = { titleKey: 'lists.mappingPageTitle' }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const view = await readListMapping(user, params.id)
  if (!view) throw data({ message: 'List not found' }, { status: 404 })
  // A launched list is its export now.
  if (view.list.exportId) throw redirect(`/exports/${view.list.exportId}`)
  return { view }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: ListMappingSchema })
  const sent = (submission.payload.columns as unknown[] | undefined)?.map(String) as ListColumnKind[] | undefined
  const view = await readListMapping(user, params.id, submission.status === 'success' ? submission.value.columns : undefined)
  if (!view) throw data({ message: 'List not found' }, { status: 404 })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0]
    return data({ view: { ...view, columns: sent?.length === view.list.headers.length ? sent : view.columns }, error: t(first ?? 'lists.errors.mappingRequired') }, { status: 400 })
  }
  if (formData.get('intent') !== 'confirm') return data({ view, error: undefined })
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const confirmed = await confirmListMapping({ user, listId: params.id, columns: submission.value.columns, lang })
  if (confirmed.ok) throw redirect(`/lists/${params.id}/confirm`)
  if ('refusal' in confirmed) {
    const { status, message, headers } = refusalAnswer(context, confirmed.refusal)
    return data({ view, error: message }, { status, headers })
  }
  if (confirmed.code === 'not_found') throw data({ message: 'List not found' }, { status: 404 })
  return data({ view, error: t(confirmed.messageKey ?? `lists.errors.${confirmed.code}`) }, { status: LIST_COMMAND_STATUS[confirmed.code] })
}

export default function ListMappingRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const actionData = useActionData<typeof action>()
  const view = actionData?.view ?? loaderData.view
  const rows = view.list.rowCount
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to="/lists/new">{t('lists.backToUpload')}</BackLink>
      <div>
        <p className="text-sm font-medium text-brand-700">{t('lists.steps.mapping')}</p>
        <h1 className="mt-1 min-w-0 text-2xl font-semibold break-words text-slate-900">{t('lists.mapping.title', { file: view.list.fileName })}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('lists.mapping.subtitle', { count: rows, formatted: numberFormat(i18n.language).format(rows) })}</p>
      </div>
      {/* A new key per answer: the choices shown are the ones the server read. */}
      <ListMappingForm key={view.columns.join()} view={view} error={actionData?.error} />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const notFound = { title: t('lists.notFound'), body: t('lists.notFoundBody') }
  return <RouteErrorCard error={error} title={t('lists.loadFailed')} body={t('errorPage.body')} notFound={notFound} backTo="/lists/new" backLabel={t('lists.backToUpload')} />
}
