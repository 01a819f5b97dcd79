import type { Queryable } from './db.ts'
import type { JsonObject } from './http.ts'

/** The auth.users columns the local server reads. */
export interface UserRow {
  id: string
  aud: string | null
  role: string | null
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: Date | null
  recovery_sent_at: Date | null
  last_sign_in_at: Date | null
  raw_app_meta_data: JsonObject | null
  raw_user_meta_data: JsonObject | null
  is_anonymous: boolean
  created_at: Date | null
  updated_at: Date | null
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, recovery_sent_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, is_anonymous, created_at, updated_at`

/** What hosted Supabase sets for an email/password account. */
const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] }

const iso = (date: Date | null) => (date ? date.toISOString() : undefined)

/** The user object as GoTrue returns it (the shape supabase-js' `User` type expects). */
export function toUserJson(user: UserRow) {
  return {
    id: user.id,
    aud: user.aud || 'authenticated',
    role: user.role || 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: '',
    confirmed_at: iso(user.email_confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: [],
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  }
}

export async function findUserById(db: Queryable, id: string) {
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id])
  return rows[0]
}

/** Matches the unique index on lower(email). */
export async function findUserByEmail(db: Queryable, email: string) {
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where lower(email) = lower($1)`, [
    email,
  ])
  return rows[0]
}

/**
 * A plain INSERT on auth.users, so triggers on that table (e.g. the one creating
 * public.users rows) fire exactly as they do on hosted Supabase. Sign-ups are
 * auto-confirmed and count as the first sign-in.
 */
export async function insertUser(
  db: Queryable,
  { email, passwordHash, metadata }: { email: string; passwordHash: string; metadata: JsonObject },
) {
  const { rows } = await db.query<UserRow>(
    `insert into auth.users
       (instance_id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
        raw_app_meta_data, raw_user_meta_data, is_anonymous, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', $1, $2, now(), now(),
        $3, $4, false, now(), now())
     returning ${USER_COLUMNS}`,
    [email, passwordHash, EMAIL_APP_METADATA, metadata],
  )
  return rows[0]!
}

export async function recordSignIn(db: Queryable, id: string) {
  const { rows } = await db.query<UserRow>(
    `update auth.users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [id],
  )
  return rows[0]!
}

/**
 * Shallow-merges `changes` into user_metadata the way GoTrue does: a key set to null
 * is removed, every other key is replaced. Done in SQL so concurrent updates do not
 * overwrite each other's keys.
 */
export async function mergeUserMetadata(db: Queryable, id: string, changes: JsonObject) {
  const set: JsonObject = {}
  const removed: string[] = []
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) removed.push(key)
    else set[key] = value
  }
  await db.query(
    `update auth.users
        set raw_user_meta_data = (coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb) - $3::text[],
            updated_at = now()
      where id = $1`,
    [id, set, removed],
  )
}

export async function updatePasswordHash(db: Queryable, id: string, passwordHash: string) {
  await db.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [id, passwordHash])
}

/** With auto-confirm on, hosted GoTrue applies an email change at once; so does this server. */
export async function updateEmail(db: Queryable, id: string, email: string) {
  await db.query(
    'update auth.users set email = $2, email_confirmed_at = now(), updated_at = now() where id = $1',
    [id, email],
  )
}
