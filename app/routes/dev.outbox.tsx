import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/dev.outbox'
import { env } from '#app/.server/env.ts'
import { readOutbox } from '#server/auth-server/index.ts'

/**
 * Development only: the emails the local auth server "sent" (password resets), with their
 * links. It exists only while the embedded auth server is in use; tests read it too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!env.localAuth) throw data(null, { status: 404 })
  const to = new URL(request.url).searchParams.get('to') ?? undefined
  const emails = await readOutbox(process.env.DATABASE_URL!, { to, limit: 50 })
  return {
    emails: emails.map((email) => ({
      id: String(email.id),
      to: email.to_email,
      subject: email.subject,
      link: email.link,
      createdAt: new Date(email.created_at).toISOString(),
    })),
  }
}

export default function OutboxRoute({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation()
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' })
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <title>{`${t('pages.outbox')} · LeadAtlas`}</title>
      <h1 className="text-2xl font-semibold text-slate-900">{t('outbox.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('outbox.description')}</p>
      {loaderData.emails.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center text-sm text-slate-600">{t('outbox.empty')}</p>
      ) : (
        <ul className="mt-8 space-y-3">
          {loaderData.emails.map((email) => (
            <li key={email.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="outbox-email">
              <p className="text-sm font-medium text-slate-900">{email.subject}</p>
              <p className="mt-1 text-sm text-slate-600">
                {t('outbox.to')}: <span data-testid="outbox-to">{email.to}</span> · {t('outbox.sentAt')}: {format.format(new Date(email.createdAt))}
              </p>
              {email.link ? (
                <a href={email.link} className="mt-2 inline-block text-sm font-medium break-all text-brand-600 hover:text-brand-700" data-testid="outbox-link">
                  {t('outbox.open')}
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
