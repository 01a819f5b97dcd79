import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { ApiKeyListing } from '#app/domain/api-keys.ts'
import { Button } from '#app/components/ui/button.tsx'
import { formatDate } from '#app/utils/dates.ts'

/** The user's keys: name, prefix, created, last used, and Revoke for the live ones. Revoked keys stay listed, greyed. */
export function ApiKeyList({ keys }: { keys: ApiKeyListing[] }) {
  const { t, i18n } = useTranslation()
  if (keys.length === 0) return <p className="text-sm text-slate-600">{t('apiSettings.noKeys')}</p>
  const date = (value: string | null) => (value ? formatDate(value, i18n.language, t, 'dateTime') : t('apiSettings.never'))
  return (
    <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label={t('apiSettings.keysTitle')}>
      {keys.map((key) => (
        <li key={key.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key-row">
          {/* A revoked key is told apart by its badge and a struck-through name, not by transparency: opacity-60 put
              its text at 2.7–3.2:1 (WCAG asks 4.5:1). */}
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <span className={key.revokedAt ? 'truncate font-medium text-slate-600 line-through' : 'truncate font-medium text-slate-900'}>{key.name}</span>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{key.prefix}…</code>
              {key.revokedAt ? (
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{t('apiSettings.revoked')}</span>
              ) : (
                <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">{t('apiSettings.active')}</span>
              )}
            </p>
            <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
              <div className="flex gap-1">
                <dt>{t('apiSettings.created')}</dt>
                <dd>{date(key.createdAt)}</dd>
              </div>
              <div className="flex gap-1">
                <dt>{t('apiSettings.lastUsed')}</dt>
                <dd>{date(key.lastUsedAt)}</dd>
              </div>
              {key.author ? (
                <div className="flex gap-1">
                  <dt>{t('apiSettings.author')}</dt>
                  <dd className="break-all">{key.author}</dd>
                </div>
              ) : null}
              {key.revokedAt ? (
                <div className="flex gap-1">
                  <dt>{t('apiSettings.revokedOn')}</dt>
                  <dd>{date(key.revokedAt)}</dd>
                </div>
              ) : null}
            </dl>
          </div>
          {key.revokedAt ? null : (
            <Form method="post" className="shrink-0">
              <input type="hidden" name="intent" value="revoke-key" />
              <input type="hidden" name="id" value={key.id} />
              <Button type="submit" variant="secondary" size="sm" aria-label={t('apiSettings.revokeNamed', { name: key.name })}>
                {t('apiSettings.revoke')}
              </Button>
            </Form>
          )}
        </li>
      ))}
    </ul>
  )
}
