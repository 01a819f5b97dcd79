import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, redirect } from 'react-router'
import type { Route } from './+types/notifications'
import type { AppHandle } from './app-layout.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { listNotifications, markRead } from '#app/.server/notifications/store.ts'
import { NotificationList } from '#app/components/notifications/notification-list.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { NotificationCommandSchema } from '#app/domain/notification-commands.ts'
import { notificationPath } from '#app/domain/notifications.ts'

export const handle: AppHandle = { titleKey: 'pages.notifications' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  return listNotifications(user)
}

/** Opening a notification marks it read on the way to its page; "Mark all as read" empties the badge. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const submission = parseWithZod(await request.formData(), { schema: NotificationCommandSchema })
  if (submission.status !== 'success') return data({ ok: false }, { status: 400 })
  if (submission.value.intent === 'read-all') {
    await markRead(user, 'all')
    throw redirect('/notifications')
  }
  const notification = await markRead(user, submission.value.id)
  throw redirect(notification ? notificationPath(notification) : '/notifications')
}

export default function NotificationsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('notifications.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('notifications.subtitle')}</p>
        </div>
        {loaderData.unread > 0 ? (
          <Form method="post" className="shrink-0">
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="secondary">
              {t('notifications.markAllRead')}
            </Button>
          </Form>
        ) : null}
      </div>
      <NotificationList items={loaderData.items} />
    </section>
  )
}
