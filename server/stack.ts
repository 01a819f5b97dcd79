import path from 'node:path'
import { startEmbeddedPostgres } from './embedded-postgres.ts'
import { migrate } from './migrate.ts'
import { startAuthServer } from './auth-server/index.ts'
import { startMailbox } from './mailbox.ts'

export interface LocalStack {
  databaseUrl: string
  supabaseUrl: string
  supabaseAnonKey: string
  /** The local mailbox (loopback only), when the local auth server keeps its mail locally (no SMTP_URL). */
  mailboxUrl?: string
  /** true when Postgres and auth are the embedded local ones. */
  local: { database: boolean; auth: boolean }
  stop: () => Promise<void>
}

/**
 * Starts whatever part of the stack the environment does not provide:
 * embedded Postgres unless DATABASE_URL is given, the local auth server unless
 * SUPABASE_URL + SUPABASE_ANON_KEY are given. Migrations always run.
 */
export async function startLocalStack({
  dataDir,
  siteUrl,
  env = {},
  log = () => {},
}: {
  dataDir: string
  siteUrl: string
  env?: {
    DATABASE_URL?: string
    SUPABASE_URL?: string
    SUPABASE_ANON_KEY?: string
    POSTGRES_PORT?: string
    AUTH_PORT?: string
    MAILBOX_PORT?: string
    SMTP_URL?: string
    SMTP_FROM?: string
  }
  log?: (message: string) => void
}): Promise<LocalStack> {
  const stops: Array<() => Promise<void>> = []
  try {
    let databaseUrl = env.DATABASE_URL
    if (!databaseUrl) {
      const db = await startEmbeddedPostgres({
        dataDir,
        port: env.POSTGRES_PORT ? Number(env.POSTGRES_PORT) : undefined,
      })
      stops.push(db.stop)
      databaseUrl = db.url
      log(`Embedded Postgres ready at ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`)
    }
    const ran = await migrate(databaseUrl, { bootstrap: !env.DATABASE_URL })
    if (ran.length) log(`Applied migrations: ${ran.join(', ')}`)

    let supabaseUrl = env.SUPABASE_URL
    let supabaseAnonKey = env.SUPABASE_ANON_KEY
    let mailboxUrl: string | undefined
    if (!supabaseUrl || !supabaseAnonKey) {
      const auth = await startAuthServer({
        databaseUrl,
        siteUrl,
        keyFile: path.join(dataDir, 'auth-signing-key.json'),
        port: env.AUTH_PORT ? Number(env.AUTH_PORT) : undefined,
        smtpUrl: env.SMTP_URL || undefined,
        smtpFrom: env.SMTP_FROM || undefined,
      })
      stops.unshift(auth.stop)
      supabaseUrl = auth.url
      supabaseAnonKey = auth.anonKey
      log(`Local auth server ready at ${supabaseUrl}`)
      if (!env.SMTP_URL) {
        const mailbox = await startMailbox({ databaseUrl, port: env.MAILBOX_PORT ? Number(env.MAILBOX_PORT) : undefined })
        stops.unshift(mailbox.stop)
        mailboxUrl = mailbox.url
      }
    }
    return {
      databaseUrl,
      supabaseUrl,
      supabaseAnonKey,
      mailboxUrl,
      local: { database: !env.DATABASE_URL, auth: !env.SUPABASE_URL },
      stop: async () => {
        for (const stop of stops) await stop().catch(() => {})
      },
    }
  } catch (error) {
    for (const stop of stops) await stop().catch(() => {})
    throw error
  }
}
