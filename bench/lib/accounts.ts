// A bench account: an auth user with a million credits, as a signed-in session. One per export when a second export of
// the same businesses would otherwise be free (never pay twice).
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { SessionUser } from '#app/.server/auth.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

export async function benchAccount(admin: pg.Pool): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@bench.test`, {}])
  await admin.query(`select public.apply_credit_change($1, 1000000, 'adjustment', $2)`, [id, `bench:${id}`])
  return personalSession(id, `${id}@bench.test`)
}
