/**
 * Notifications as the user sees them (the bell, /notifications) and their email preferences, read and written as
 * the user (RLS); notify() is the server's way to tell a user something that is not an export's end (those come from
 * the trigger on exports, supabase/migrations/20261127120000_notifications.sql).
 */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser, type Database } from '#app/.server/db.ts'
import { isUuid } from '#app/domain/ids.ts'
import {
  isNotificationKind,
  NOTIFICATION_PREFERENCES,
  type NotificationData,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationView,
} from '#app/domain/notifications.ts'

/** The list shows this many, newest first; older ones stay (and count as read once the list was marked read). */
const NOTIFICATIONS_SHOWN = 50

export function listNotifications(user: SessionUser): Promise<{ items: NotificationView[]; unread: number }> {
  return withUser(user.claims, async (trx) => {
    const rows = await trx
      .selectFrom('notifications')
      .select(['id', 'kind', 'data', 'created_at', 'read_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(NOTIFICATIONS_SHOWN)
      .execute()
    const items = rows
      .filter((row) => isNotificationKind(row.kind))
      .map((row) => ({ id: row.id, kind: row.kind as NotificationKind, data: row.data as NotificationData, createdAt: new Date(row.created_at).toISOString(), read: row.read_at !== null }))
    return { items, unread: await countUnread(trx, user.id) }
  })
}

async function countUnread(trx: Transaction<Database>, userId: string): Promise<number> {
  const { count } = await trx
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** The bell's badge. Never fails the page: a database hiccup shows no badge. */
export async function unreadNotifications(user: SessionUser): Promise<number> {
  try {
    return await withUser(user.claims, (trx) => countUnread(trx, user.id))
  } catch {
    return 0
  }
}

/** Marks one (its id) or all of the user's notifications read; returns the notification's data for one. */
export async function markRead(user: SessionUser, id: string | 'all'): Promise<NotificationData | null> {
  return withUser(user.claims, async (trx) => {
    let update = trx.updateTable('notifications').set({ read_at: sql`coalesce(read_at, now())` }).where('user_id', '=', user.id)
    if (id !== 'all') {
      if (!isUuid(id)) return null
      update = update.where('id', '=', id)
    } else {
      update = update.where('read_at', 'is', null)
    }
    const rows = await update.returning('data').execute()
    return id === 'all' ? null : ((rows[0]?.data as NotificationData | undefined) ?? null)
  })
}

/** Tells a user something (saved-search runs); the worker emails it if the user's preference allows. */
export async function notify(db: Kysely<Database> | Transaction<Database>, userId: string, kind: NotificationKind, data: NotificationData): Promise<void> {
  await db.insertInto('notifications').values({ user_id: userId, kind, data: { ...data } }).execute()
}

export function readNotificationPreferences(user: SessionUser): Promise<NotificationPreferences> {
  return withUser(user.claims, async (trx) => {
    const row = await trx.selectFrom('users').select(NOTIFICATION_PREFERENCES).where('id', '=', user.id).executeTakeFirst()
    return Object.fromEntries(NOTIFICATION_PREFERENCES.map((name) => [name, row?.[name] ?? true])) as NotificationPreferences
  })
}

export async function saveNotificationPreferences(user: SessionUser, preferences: NotificationPreferences): Promise<void> {
  await withUser(user.claims, (trx) => trx.updateTable('users').set(preferences).where('id', '=', user.id).execute())
}
