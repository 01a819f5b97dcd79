import pg from 'pg'

/** An email the local server "sent": written to auth.local_outbox for the local mailbox and the tests. */
export interface OutboxEmail {
  id: number
  to_email: string
  subject: string
  body_text: string
  link: string | null
  created_at: Date
}

/**
 * Reads the outbox newest first, optionally only the emails to one address.
 * Opens its own connection so callers (the local mailbox, tests) need no pool.
 */
export async function readOutbox(
  databaseUrl: string,
  { to, limit = 20 }: { to?: string; limit?: number } = {},
): Promise<OutboxEmail[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<Omit<OutboxEmail, 'id'> & { id: string }>(
      `select id, to_email, subject, body_text, link, created_at
         from auth.local_outbox
        where $1::text is null or lower(to_email) = lower($1)
        order by id desc
        limit $2`,
      [to ?? null, Math.max(1, Math.floor(limit))],
    )
    // bigserial arrives as a string; outbox ids stay far below 2^53.
    return rows.map((row) => ({ ...row, id: Number(row.id) }))
  } finally {
    await client.end()
  }
}
