import path from 'node:path'
import { startEmbeddedPostgres } from './embedded-postgres.ts'
import { migrate } from './migrate.ts'
import { passwordFile } from './postgres-secrets.ts'
import { startAuthServer } from './auth-server/index.ts'
import { startMailbox } from './mailbox.ts'
import type { Env } from '#app/.server/env.server.ts'

export interface LocalStack {
  /** The app's connection: DATABASE_URL, else the embedded cluster's app role (no superuser). */
  databaseUrl: string
  /** The embedded cluster's superuser (migrations; tests that change the schema); none with DATABASE_URL. */
  superuserDatabaseUrl?: string
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
  /** What the environment provides (server/start.ts passes the validated configuration; tests nothing). */
  env?: Partial<Pick<Env, 'DATABASE_URL' | 'SUPABASE_URL' | 'SUPABASE_ANON_KEY' | 'POSTGRES_PORT' | 'AUTH_PORT' | 'MAILBOX_PORT' | 'SMTP_URL' | 'SMTP_FROM'>>
  log?: (message: string) => void
}): Promise<LocalStack> {
  const stops: Array<() => Promise<void>> = []
  try {
    let databaseUrl = env.DATABASE_URL
    let superuserDatabaseUrl: string | undefined
    if (!databaseUrl) {
      const db = await startEmbeddedPostgres({
        dataDir,
        port: env.POSTGRES_PORT,
      })
      stops.push(db.stop)
      databaseUrl = db.url
      superuserDatabaseUrl = db.superuserUrl
      log(`Embedded Postgres ready at ${databaseUrl.replace(/:[^:@/]+@/, ':***@')} (password in ${passwordFile(dataDir, 'app')})`)
    }
    // The schema belongs to the superuser: the app's role may use it, not change it.
    const ran = await migrate(superuserDatabaseUrl ?? databaseUrl, { bootstrap: !env.DATABASE_URL })
    if (ran.length) log(`Applied migrations: ${ran.join(', ')}`)

    let supabaseUrl = env.SUPABASE_URL
    let supabaseAnonKey = env.SUPABASE_ANON_KEY
    let mailboxUrl: string | undefined
    if (!supabaseUrl || !supabaseAnonKey) {
      const auth = await startAuthServer({
        databaseUrl,
        siteUrl,
        keyFile: path.join(dataDir, 'auth-signing-key.json'),
        port: env.AUTH_PORT,
        smtpUrl: env.SMTP_URL || undefined,
        smtpFrom: env.SMTP_FROM || undefined,
      })
      stops.unshift(auth.stop)
      supabaseUrl = auth.url
      supabaseAnonKey = auth.anonKey
      log(`Local auth server ready at ${supabaseUrl}`)
      if (!env.SMTP_URL) {
        const mailbox = await startMailbox({ databaseUrl, port: env.MAILBOX_PORT })
        stops.unshift(mailbox.stop)
        mailboxUrl = mailbox.url
      }
    }
    return {
      databaseUrl,
      superuserDatabaseUrl,
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
