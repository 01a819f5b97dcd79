import pg from 'pg'
import { APP_ROLE, embeddedUrl, passwordFile, readPassword } from '#server/postgres-secrets.ts'

/**
 * The e2e server's embedded Postgres, for test set-up only: its port and DATA_DIR as playwright.config.ts pins
 * them, as the app's role (set-up writes rows, never the schema), with the password the server generated there.
 */
function e2eDatabaseUrl() {
  const dataDir = `.data/e2e-${process.env.E2E_PORT ?? 3100}`
  const port = Number(process.env.E2E_POSTGRES_PORT ?? 54400)
  return embeddedUrl({ user: APP_ROLE, password: readPassword(passwordFile(dataDir, 'app')), port })
}

export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() })
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
