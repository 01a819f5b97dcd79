import { sql } from 'kysely'
import { adminDb } from '#app/.server/db.ts'

/**
 * A personal workspace for a user who belongs to none (they left their teams, or handed theirs over and left it):
 * a new id, since the one equal to their user id may be a team's now. Serialised per user so two requests make one.
 */
export async function ensurePersonalWorkspace(userId: string): Promise<string> {
  return adminDb().transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`workspace:personal:${userId}`}, 0))`.execute(trx)
    const existing = await trx.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', userId).orderBy('created_at').executeTakeFirst()
    if (existing) return existing.workspace_id
    const profile = await sql<{ name: string }>`
      select left(coalesce(nullif(btrim(u.company_name), ''), nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''),
                           nullif(split_part(a.email, '@', 1), ''), 'Workspace'), 80) as name
        from public.users u left join auth.users a on a.id = u.id where u.id = ${userId}`.execute(trx)
    const workspace = await trx.insertInto('workspaces').values({ name: profile.rows[0]?.name ?? 'Workspace' }).returning('id').executeTakeFirstOrThrow()
    await trx.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: userId, role: 'owner' }).execute()
    return workspace.id
  })
}
