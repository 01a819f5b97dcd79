import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, isRouteErrorResponse, Link, useNavigation, useRevalidator, useSearchParams } from 'react-router'
import type { Route } from './+types/exports'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { listExports } from '#app/.server/exports/views.ts'
import { readMemberChoices } from '#app/.server/workspaces/team-view.ts'
import { AutoRefresh } from '#app/components/exports/auto-refresh.tsx'
import { ExportsEmpty, ExportsFilters } from '#app/components/exports/exports-filters.tsx'
import { ExportCards, ExportsTable } from '#app/components/exports/exports-list.tsx'
import { ExportsPager } from '#app/components/exports/exports-pager.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { parseExportSort } from '#app/domain/export-list.ts'
import { ExportStatusFilterSchema } from '#app/domain/export-commands.ts'

export const handle: AppHandle = { titleKey: 'pages.exports' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const url = new URL(request.url)
  const filter = ExportStatusFilterSchema.safeParse(url.searchParams.get('status'))
  if (!filter.success) throw data({ error: 'Unknown status' }, { status: 400 })
  const status = filter.data
  const sort = parseExportSort(url.searchParams)
  const members = await readMemberChoices(user)
  const member = members.find((choice) => choice.id === url.searchParams.get('member'))?.id ?? ''
  const { exports, page, pageCount, running } = await listExports(user, status === 'all' ? undefined : status, sort, Number(url.searchParams.get('page') ?? '1'), member || undefined)
  return { exports, status, sort, running, page, pageCount, members, member }
}

export default function ExportsRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const filtering = navigation.state === 'loading' && navigation.location.pathname === '/exports'
  const { exports, status, sort, running, page, pageCount, members, member } = loaderData
  const notice = searchParams.get('deleted') === '1' ? t('exports.detail.deleted') : null
  return (
    <section className="mx-auto max-w-6xl space-y-6">
      <AutoRefresh active={running} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('exports.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('exports.subtitle')}</p>
        </div>
        <Link to="/" className={buttonClasses()}>
          {t('exports.newExport')}
        </Link>
      </div>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <ExportsFilters status={status} sort={sort} filtering={filtering} members={members} member={member} />
      {exports.length === 0 ? (
        <ExportsEmpty filtered={status !== 'all' || member !== ''} />
      ) : (
        <>
          <ExportsTable exports={exports} sort={sort} searchParams={searchParams} language={i18n.language} />
          <ExportCards exports={exports} language={i18n.language} />
        </>
      )}
      {pageCount > 1 ? <ExportsPager page={page} pageCount={pageCount} searchParams={searchParams} /> : null}
      {running ? <p className="text-xs text-slate-500">{t('exports.autoRefresh')}</p> : null}
    </section>
  )
}

/** "Error loading exports" with a try-again button whose spinner runs 1 s (SPEC §8, §9). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const revalidator = useRevalidator()
  const [retrying, setRetrying] = useState(false)
  useEffect(() => {
    if (!retrying) return
    const timer = setTimeout(() => {
      setRetrying(false)
      void revalidator.revalidate()
    }, 1000)
    return () => clearTimeout(timer)
  }, [retrying, revalidator])
  if (isRouteErrorResponse(error) && error.status === 400) {
    return (
      <section className="mx-auto max-w-6xl">
        <Alert tone="error" title={t('exports.errorTitle')}>
          {t('errorPage.badRequest')}{' '}
          <Link to="/exports" className="font-medium underline">
            {t('exports.clearFilter')}
          </Link>
        </Alert>
      </section>
    )
  }
  return (
    <section className="mx-auto max-w-6xl">
      <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200" role="alert">
        <h1 className="text-lg font-semibold text-slate-900">{t('exports.errorTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('exports.loadFailed')}</p>
        <Form method="get" action="/exports" onSubmit={(event) => (event.preventDefault(), setRetrying(true))} className="mt-6">
          <Button type="submit" pending={retrying}>
            {t('common.tryAgain')}
          </Button>
        </Form>
      </div>
    </section>
  )
}
