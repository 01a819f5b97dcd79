import { randomUUID } from 'node:crypto'
import type pg from 'pg'

/** A new auth user whose balance is exactly `credits` (the sign-up grant adjusted through the ledger). */
export async function createUserWithCredits(admin: pg.Pool, credits: number): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`])
  const { rows } = await admin.query('select remaining_credits from public.user_credits where user_id = $1', [id])
  const delta = credits - rows[0].remaining_credits
  if (delta) await admin.query(`select public.apply_credit_change($1, $2, 'adjustment', $3)`, [id, delta, `test:${randomUUID()}`])
  return id
}
