import pg from 'pg'

/** The e2e server's embedded Postgres (playwright.config.ts pins its port), for test set-up only. */
const E2E_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_POSTGRES_PORT ?? 54400}/leadatlas`

export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** Puts a user on a paid plan, as the billing webhook will (subscription row, period in the future). */
export async function subscribe(email: string, plan: 'basic' | 'professional' | 'premium') {
  await sql(
    `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end, next_credit_date)
     select id, $2, 'active', 'monthly', now() + interval '30 days', now() + interval '30 days' from auth.users where email = $1`,
    [email, plan],
  )
}
