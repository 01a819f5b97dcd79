import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/settings.team.activity'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { readActivityPage } from '#app/.server/workspaces/activity.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { pageTexts } from '#app/i18n.ts'

await pageTexts('team')

export const handle: AppHandle = { titleKey: 'pages.teamActivity' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const raw = Number(new URL(request.url).searchParams.get('page') ?? '0')
  const page = Number.isInteger(raw) && raw >= 0 && raw <= 10_000 ? raw : 0
  return { ...(await readActivityPage(user, page)), page }
}

export default function TeamActivityRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const { entries, more, page } = loaderData
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <section className="mx-auto max-w-4xl space-y-6">
      <BackLink to="/settings/team">{t('team.activity.backToTeam')}</BackLink>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('team.activity.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('team.activity.subtitle')}</p>
        </div>
        <a href="/settings/team/activity.csv" download className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          {t('team.activity.download')}
        </a>
      </div>
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {entries.length === 0 ? (
          <p className="p-6 text-sm text-slate-600 sm:p-8">{t('team.activity.empty')}</p>
        ) : (
          <ol className="divide-y divide-slate-100" aria-label={t('team.activity.title')}>
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-1 px-6 py-4 sm:flex-row sm:items-baseline sm:gap-4 sm:px-8" data-testid="team-event">
                <time dateTime={entry.createdAt} className="shrink-0 text-sm text-slate-500 sm:w-44">
                  {when.format(new Date(entry.createdAt))}
                </time>
                <p className="min-w-0 text-sm break-words text-slate-800">
                  <span className="font-medium text-slate-900">{entry.actor ?? t('team.activity.someoneGone')}</span>{' '}
                  {t(`team.activity.kinds.${entry.kind}`, { subject: entry.subject ?? '', count: Number(entry.data.count ?? 0) })}
                </p>
              </li>
            ))}
          </ol>
        )}
      </div>
      {page > 0 || more ? (
        <nav className="flex justify-between gap-3" aria-label={t('team.activity.title')}>
          {page > 0 ? (
            <Link to={`?page=${page - 1}`} className={buttonClasses({ variant: 'secondary' })}>
              {t('team.activity.newer')}
            </Link>
          ) : (
            <span />
          )}
          {more ? (
            <Link to={`?page=${page + 1}`} className={buttonClasses({ variant: 'secondary' })}>
              {t('team.activity.older')}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  )
}
