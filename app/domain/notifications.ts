// What a notification is about, where it leads and which email preference switches it. Pure: shared by the bell,
// the list, the settings form and the mailer.
const NOTIFICATION_KINDS = ['export.completed', 'export.failed', 'export.interrupted', 'saved_search.new_businesses', 'saved_search.refused', 'webhook.disabled', 'crm_push.failed'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** The email switches in /settings, each a column of public.users. */
export const NOTIFICATION_PREFERENCES = ['notify_export_completed', 'notify_export_failed', 'notify_export_interrupted', 'notify_saved_search'] as const
type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number]
export type NotificationPreferences = Record<NotificationPreference, boolean>

/** null: always emailed (an endpoint disabled after failing for days is not something a user may miss). */
export const PREFERENCE_OF: Record<NotificationKind, NotificationPreference | null> = {
  'export.completed': 'notify_export_completed',
  'export.failed': 'notify_export_failed',
  'export.interrupted': 'notify_export_interrupted',
  'saved_search.new_businesses': 'notify_saved_search',
  'saved_search.refused': 'notify_saved_search',
  'webhook.disabled': null,
  // A push that failed is the user's own action going wrong: told as an export failure is.
  'crm_push.failed': 'notify_export_failed',
}

export interface NotificationData {
  exportId?: string
  savedSearchId?: string
  name?: string
  leadCount?: number
  newCount?: number
  credits?: number
  /** Why it stopped or was refused (insufficient_credits, plan_restricted, …). */
  reason?: string | null
  /** A webhook endpoint (webhook.disabled) and its URL. */
  endpointId?: string
  url?: string
}

export interface NotificationView {
  id: string
  kind: NotificationKind
  data: NotificationData
  createdAt: string
  read: boolean
}

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value)
}

/** The page a notification opens: the export it is about, else the saved searches. */
export function notificationPath(data: NotificationData): string {
  if (data.exportId && /^[0-9a-f-]{36}$/i.test(data.exportId)) return `/exports/${data.exportId}`
  if (data.endpointId && /^[0-9a-f-]{36}$/i.test(data.endpointId)) return `/settings/api/webhooks/${data.endpointId}`
  return '/saved-searches'
}

/** The i18n key of its sentence (notifications.kinds.*), with {{name}}, {{count}}, {{credits}}. */
export function notificationMessageKey(kind: NotificationKind): string {
  return `notifications.kinds.${kind.replace('.', '_')}`
}
