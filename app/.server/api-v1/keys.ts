/**
 * API keys (../shared/API.md "Authentication"): `la_` + 40 random base62 characters (238 bits), shown once. Only the
 * SHA-256 is stored: a key has far too much entropy for a fast hash to be guessed, and looking a guess up by its
 * digest in a unique index takes the same time whether or not any stored key shares a prefix with it (nothing is
 * compared character by character against the secret). The first 8 characters name the key in lists and logs.
 */
import { createHash, randomInt } from 'node:crypto'
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser } from '#app/.server/db.ts'
import { noteRequestUser } from '#app/.server/observability/request-context.ts'
import { memberSession } from '#app/.server/workspaces/current.ts'
import { API_KEY_PREFIX_LENGTH, isApiKeyShaped, type ApiKeyListing } from '#app/domain/api-keys.ts'
import { isUuid } from '#app/domain/ids.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'
import { recordTeamEvent } from '#app/.server/workspaces/events.ts'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SECRET_LENGTH = 40
/** last_used_at is written at most this often per key: a busy key must not turn every read into a write. */
const LAST_USED_PRECISION_SECONDS = 60

function generateApiKey(): string {
  let secret = ''
  for (let i = 0; i < SECRET_LENGTH; i += 1) secret += BASE62[randomInt(BASE62.length)]
  return `la_${secret}`
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

/** Live keys per user: enough for every tool a team wires in, few enough to review. */
export const MAX_ACTIVE_KEYS = 20

/** Creates a key for the user (the only time the full key exists outside the client), or null at MAX_ACTIVE_KEYS. */
export async function createApiKey(user: SessionUser, name: string): Promise<{ id: string; key: string; prefix: string } | null> {
  requirePermission(user, 'ownKeys')
  const key = generateApiKey()
  const prefix = key.slice(0, API_KEY_PREFIX_LENGTH)
  const row = await withUser(user.claims, async (trx) => {
    // One user's creations in turn, so two at once cannot both pass the cap.
    await sql`select pg_advisory_xact_lock(hashtext('api_keys'), hashtext(${user.id}))`.execute(trx)
    const { count } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', user.workspace.id)
      .where('created_by', '=', user.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow()
    if (Number(count) >= MAX_ACTIVE_KEYS) return null
    const created = await trx.insertInto('api_keys').values({ user_id: user.workspace.id, name, prefix, key_hash: digest(key) }).returning('id').executeTakeFirstOrThrow()
    await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'api_key_created', subject: `${name} (${prefix}…)` })
    return created
  })
  return row ? { id: row.id, key, prefix } : null
}

/** The user's keys, active first, newest first. */
export async function listApiKeys(user: SessionUser): Promise<ApiKeyListing[]> {
  const rows = await withUser(user.claims, (trx) =>
    trx
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at', 'created_by'])
      .where('user_id', '=', user.workspace.id)
      .orderBy(sql`revoked_at is not null`)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(200)
      .execute(),
  )
  // Owners and admins also see their teammates' keys (RLS): named by their author.
  const others = [...new Set(rows.map((row) => row.created_by).filter((id): id is string => Boolean(id) && id !== user.id))]
  const authors = new Map<string, string>()
  if (others.length) {
    const found = await sql<{ id: string; email: string | null }>`select id, email from auth.users where id = any(${others}::uuid[])`.execute(adminDb())
    for (const row of found.rows) authors.set(row.id, row.email ?? '')
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.created_at)!,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    mine: row.created_by === user.id,
    author: row.created_by && row.created_by !== user.id ? (authors.get(row.created_by) ?? null) : null,
  }))
}

/** Revokes the user's key (false when it is not theirs or already revoked); the next request with it is refused. */
export async function revokeApiKey(user: SessionUser, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  return withUser(user.claims, async (trx) => {
    const revoked = await trx.updateTable('api_keys').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).returning(['name', 'prefix']).executeTakeFirst()
    if (revoked) await recordTeamEvent(trx, { workspaceId: user.workspace.id, actorId: user.id, kind: 'api_key_revoked', subject: `${revoked.name} (${revoked.prefix}…)` })
    return Boolean(revoked)
  })
}

export interface ApiKeyOwner {
  keyId: string
  prefix: string
  user: SessionUser
}

/**
 * The owner of a live key, or null (malformed, unknown or revoked: the caller answers 401 for all alike). The owner
 * acts with a user's rights only: role `authenticated` and their id, so row-level security applies as in the app.
 */
export async function authenticateApiKey(key: string): Promise<ApiKeyOwner | null> {
  if (!isApiKeyShaped(key)) return null
  const row = await adminDb()
    .selectFrom('api_keys as k')
    .select(['k.id', 'k.user_id', 'k.created_by', 'k.prefix', 'k.last_used_at'])
    .where('k.key_hash', '=', digest(key))
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) return null
  // The key acts for the member who made it, in its workspace, with their role as it is now.
  const user = await memberSession(row.created_by ?? row.user_id, row.user_id)
  if (!user) return null
  noteRequestUser(user.id)
  const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0
  if (Date.now() - lastUsed > LAST_USED_PRECISION_SECONDS * 1000) {
    // Not awaited: the answer does not depend on it, and a failure only leaves the date older.
    void adminDb()
      .updateTable('api_keys')
      .set({ last_used_at: sql`now()` })
      .where('id', '=', row.id)
      .execute()
      .catch((error: unknown) => console.error('[api] last_used_at not written:', error instanceof Error ? error.message : error))
  }
  return { keyId: row.id, prefix: row.prefix, user }
}
