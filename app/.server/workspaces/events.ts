// The team's activity log (issue 29 item 8): one row per event, written in the transaction of the change it records.
import type { Kysely, Transaction } from 'kysely'
import type { Database, JsonObject } from '#app/.server/db.ts'

export const TEAM_EVENT_KINDS = [
  'member_invited',
  'invitation_resent',
  'invitation_revoked',
  'member_joined',
  'member_removed',
  'member_left',
  'role_changed',
  'cap_changed',
  'ownership_transferred',
  'workspace_renamed',
  'seats_changed',
  'api_key_created',
  'api_key_revoked',
  'webhook_created',
  'webhook_deleted',
  'dnc_added',
  'dnc_removed',
  'crm_connected',
  'crm_disconnected',
] as const
export type TeamEventKind = (typeof TEAM_EVENT_KINDS)[number]

export interface TeamEvent {
  workspaceId: string
  actorId: string | null
  kind: TeamEventKind
  subject?: string | null
  data?: JsonObject
}

export async function recordTeamEvent(db: Kysely<Database> | Transaction<Database>, event: TeamEvent): Promise<void> {
  await db
    .insertInto('team_events')
    .values({ workspace_id: event.workspaceId, actor_id: event.actorId, kind: event.kind, subject: event.subject?.slice(0, 400) ?? null, data: event.data ?? {} })
    .execute()
}
