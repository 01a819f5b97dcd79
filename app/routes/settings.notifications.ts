import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import type { Route } from './+types/settings.notifications'
import { requireUser } from '#app/.server/auth.ts'
import { saveNotificationPreferences } from '#app/.server/notifications/store.ts'
import { NotificationPreferencesSchema } from '#app/domain/notification-commands.ts'

/** The email switches of /settings (its second form): saved, then back to /settings with a notice. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request)
  const submission = parseWithZod(await request.formData(), { schema: NotificationPreferencesSchema })
  if (submission.status !== 'success') return data({ ok: false }, { status: 400 })
  await saveNotificationPreferences(user, submission.value)
  throw redirect('/settings?notifications=saved#notifications')
}

export function loader() {
  throw redirect('/settings#notifications')
}
