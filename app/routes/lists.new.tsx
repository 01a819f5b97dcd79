import { useTranslation } from 'react-i18next'
import { data, isRouteErrorResponse, redirect, useActionData } from 'react-router'
import type { Route } from './+types/lists.new'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { LIST_COMMAND_STATUS, uploadList } from '#app/.server/lists/commands.ts'
import { listRefusalMessage } from '#app/.server/lists/messages.ts'
import { readRecentLists } from '#app/.server/lists/view.ts'
import { refusalAnswer, withinBudget } from '#app/.server/rate-limit.ts'
import { ListColumnsHelp, ListUploadForm } from '#app/components/lists/upload-form.tsx'
import { RecentLists } from '#app/components/lists/recent-lists.tsx'
import { RouteErrorCard } from '#app/components/route-error-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { can } from '#app/domain/workspace-roles.ts'
import { LIST_MAX_FILE_BYTES, LIST_MAX_ROWS } from '#app/domain/list-columns.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { pageTexts } from '#app/i18n.ts'

await pageTexts('lists')

export const handle: AppHandle = { titleKey: 'lists.pageTitle' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  return { lists: await readRecentLists(user), canUpload: can(user.workspace.role, 'export') }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  const file = (await request.formData()).get('file')
  if (!(file instanceof File) || file.size === 0) return data({ error: t('lists.errors.noFile') }, { status: 400 })
  const bytes = new Uint8Array(await file.arrayBuffer())
  const outcome = await withinBudget('listUpload', user.id, () => uploadList({ user, fileName: file.name, bytes }), { made: (result) => result.ok })
  if (outcome.refused) {
    const { status, message, headers } = refusalAnswer(context, outcome.refused)
    return data({ error: message }, { status, headers })
  }
  const result = outcome.result
  if (result.ok) throw redirect(`/lists/${result.listId}`)
  if (result.code === 'file_refused') return data({ error: listRefusalMessage(t, result.refusal, getInstance(context).language) }, { status: result.refusal.refused === 'too_large' || result.refusal.refused === 'too_many_rows' ? 413 : 422 })
  return data({ error: t(`lists.errors.${result.code}`) }, { status: LIST_COMMAND_STATUS[result.code] })
}

export default function ListsNewRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('lists.upload.title')}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">{t('lists.upload.subtitle')}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          {loaderData.canUpload ? <ListUploadForm error={actionData?.error} /> : <Alert tone="info">{t('lists.errors.forbidden_role')}</Alert>}
        </div>
        <ListColumnsHelp />
      </div>
      <RecentLists lists={loaderData.lists} />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t, i18n } = useTranslation()
  // A file over the upload limit is refused before the page's action reads it (the HTTP layer): say so.
  const tooLarge = isRouteErrorResponse(error) && error.status === 413
  const title = tooLarge ? t('lists.refusals.tooLargeTitle') : t('lists.loadFailed')
  const body = tooLarge ? t('lists.upload.fileHint', { rows: numberFormat(i18n.language).format(LIST_MAX_ROWS), megabytes: LIST_MAX_FILE_BYTES / 1024 / 1024 }) : t('errorPage.body')
  return <RouteErrorCard error={error} title={title} body={body} backTo="/lists/new" backLabel={t('lists.backToUpload')} />
}
