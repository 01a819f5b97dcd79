import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { notificationMessageKey, type NotificationView } from '#app/domain/notifications.ts'
import { formatDate } from '#app/utils/dates.ts'
import { cn } from '#app/utils/misc.ts'

const TONE: Record<NotificationView['kind'], string> = {
  'export.completed': 'bg-emerald-500',
  'export.failed': 'bg-red-500',
  'export.interrupted': 'bg-amber-500',
  'saved_search.new_businesses': 'bg-brand-600',
  'saved_search.refused': 'bg-amber-500',
  'webhook.disabled': 'bg-red-500',
  'crm_push.failed': 'bg-red-500',
}

/** Each notification is a button that marks it read and opens its page (a form: works without JavaScript). */
export function NotificationList({ items }: { items: NotificationView[] }) {
  const { t, i18n } = useTranslation()
  if (items.length === 0) {
    return <p className="rounded-2xl bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200">{t('notifications.empty')}</p>
  }
  return (
    <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      {items.map((item) => (
        <li key={item.id} data-testid="notification" data-read={item.read}>
          <Form method="post">
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="id" value={item.id} />
            <button
              type="submit"
              className={cn(
                'flex w-full items-start gap-3 px-5 py-4 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600',
                item.read ? 'text-slate-600' : 'bg-brand-50/40 text-slate-900',
              )}
            >
              <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.read ? 'bg-slate-300' : TONE[item.kind])} />
              <span className="min-w-0 flex-1">
                <span className={cn('block text-sm', item.read ? 'font-normal' : 'font-medium')}>
                  {t(notificationMessageKey(item.kind), {
                    name: item.data.name ?? '',
                    url: item.data.url ?? '',
                    count: item.data.newCount ?? item.data.leadCount ?? 0,
                    credits: item.data.credits ?? 0,
                    reason: item.data.reason ? t(`notifications.reasons.${item.data.reason}`, { defaultValue: '' }) : '',
                  })}
                </span>
                <span className="mt-0.5 block text-xs text-slate-500">
                  {formatDate(item.createdAt, i18n.language, t, 'dateTime')}
                  {item.read ? null : <span className="sr-only">, {t('notifications.unread')}</span>}
                </span>
              </span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  )
}
