// The notification forms' schemas, shared by the forms and their actions.
import { z } from 'zod'
import { NOTIFICATION_PREFERENCES, type NotificationPreferences } from './notifications.ts'

/** A checkbox posts "on" when ticked and nothing otherwise. */
const Checkbox = z
  .literal('on')
  .optional()
  .transform((value) => value === 'on')

export const NotificationPreferencesSchema = z
  .object(Object.fromEntries(NOTIFICATION_PREFERENCES.map((name) => [name, Checkbox])) as Record<(typeof NOTIFICATION_PREFERENCES)[number], typeof Checkbox>)
  .transform((values): NotificationPreferences => values)

export const NotificationCommandSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('open'), id: z.string() }),
  z.object({ intent: z.literal('read-all') }),
])
