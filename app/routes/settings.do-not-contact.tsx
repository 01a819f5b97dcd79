import { useTranslation } from 'react-i18next'
import { data, redirect, useActionData } from 'react-router'
import type { Route } from './+types/settings.do-not-contact'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { runDncCommand } from '#app/.server/do-not-contact/commands.ts'
import { listDncPage } from '#app/.server/do-not-contact/store.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { enforceLimit } from '#app/.server/rate-limit.ts'
import { AddEntryForm, ImportForm, PasteForm } from '#app/components/do-not-contact/dnc-forms.tsx'
import { DncList } from '#app/components/do-not-contact/dnc-list.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { DNC_MAX_ENTRIES, DNC_PATH } from '#app/domain/do-not-contact.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { can } from '#app/domain/workspace-roles.ts'
import { pageTexts } from '#app/i18n.ts'

// Its texts come with the page, not with every signed-in page's first load.
await pageTexts('doNotContact')

export const handle: AppHandle = { titleKey: 'pages.doNotContact' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10)
  const list = await listDncPage(user, Number.isFinite(page) ? page : 1)
  // Post/redirect/get: what the last command did rides on the redirect's URL.
  const added = url.searchParams.get('added')
  const notice = url.searchParams.has('removed') ? ({ key: 'doNotContact.removed' } as const) : added && /^\d+$/.test(added) ? ({ key: 'doNotContact.added', count: Number(added) } as const) : null
  return { list, notice, canAdd: can(user.workspace.role, 'dncAdd'), canRemove: can(user.workspace.role, 'dncRemove') }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const t = getInstance(context).t
  await enforceLimit(context, 'dncWrite', user.id)
  const result = await runDncCommand(user, await request.formData())
  // An import's report is the answer itself, not a redirect: the page shows it with and without JavaScript.
  if (result.ok && result.report) return data({ intent: 'import' as const, imported: true as const, report: result.report })
  if (result.ok) {
    if (result.returnTo) throw redirect(`${result.returnTo}${result.returnTo.includes('?') ? '&' : '?'}neverExport=1`)
    throw redirect(result.removed !== undefined ? `${DNC_PATH}?removed=1` : `${DNC_PATH}?added=${result.added ?? 0}`)
  }
  const message = t(result.messageKey, { ...result.values, max: new Intl.NumberFormat(getInstance(context).language).format(DNC_MAX_ENTRIES) })
  return data(
    { intent: result.intent, imported: false as const, message, rejected: result.rejected ?? [], sent: result.sent ?? '', report: result.report ?? null },
    { status: result.messageKey === 'doNotContact.errors.tooMany' ? 413 : 400 },
  )
}

export default function DoNotContactRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const actionData = useActionData<typeof action>()
  const { list, notice } = loaderData
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      {/* A settings sub-page: the back link sits above the heading, as on an export's page; the heading block is the
          one /exports and /settings use (title and subtitle, the page's action on the right from sm up). */}
      <BackLink to="/settings">{t('common.backToSettings')}</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('doNotContact.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('doNotContact.subtitle')}</p>
        </div>
        <a href={`${DNC_PATH}/download`} download className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          {t('doNotContact.download')}
        </a>
      </div>
      {notice && !actionData ? (
        <Alert tone="success">
          <span data-testid="dnc-notice">{notice.key === 'doNotContact.added' ? t(notice.key, { count: notice.count, formatted: number.format(notice.count) }) : t(notice.key)}</span>
        </Alert>
      ) : null}
      {loaderData.canAdd ? <div className="space-y-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <AddEntryForm failure={actionData && !actionData.imported && actionData.intent === 'add' ? actionData : undefined} />
        <PasteForm failure={actionData && !actionData.imported && actionData.intent === 'paste' ? actionData : undefined} />
        <ImportForm failure={actionData && !actionData.imported && actionData.intent === 'import' ? actionData : undefined} report={actionData?.imported ? actionData.report : undefined} />
      </div> : null}
      <DncList page={list} canRemove={loaderData.canRemove} />
    </section>
  )
}
