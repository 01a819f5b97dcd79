import http from 'node:http'
import getPort from 'get-port'
import type { AuthContext } from './context.ts'
import { createPool } from './db.ts'
import { loadOrCreateSigningKeys } from './keys.ts'
import { createRateLimiter } from '#app/.server/rate-limiter.ts'
import { createMailer } from '#app/.server/email/mailer.ts'
import { createRequestListener } from './router.ts'
import { signApiKey } from './tokens.ts'

export { readOutbox } from './outbox.ts'

export interface AuthServerOptions {
  /** Same Postgres as the app; users live in auth.users. */
  databaseUrl: string
  /** Default target of email links; redirect_to must share its origin (or be in allowedRedirectOrigins). */
  siteUrl: string
  /** JSON file holding the ES256 signing key pair; generated on first start, reused after. */
  keyFile: string
  /** Default: a free port. The server only listens on 127.0.0.1. */
  port?: number
  allowedRedirectOrigins?: string[]
  /** Default 3600, as on hosted Supabase. */
  accessTokenTtlSeconds?: number
  /** smtp(s):// URL: mail goes out through it; otherwise into the local mailbox (auth.local_outbox). */
  smtpUrl?: string
  smtpFrom?: string
}

export interface AuthServer {
  /** e.g. http://127.0.0.1:54321 (no trailing slash); the API lives under /auth/v1. */
  url: string
  anonKey: string
  serviceRoleKey: string
  stop: () => Promise<void>
}

/**
 * Starts the local stand-in for Supabase Auth (GoTrue): the subset of its HTTP API that
 * supabase-js and @supabase/ssr use, backed by auth.* tables of the app's database.
 * Dev/test only; never exposed beyond loopback.
 */
export async function startAuthServer(options: AuthServerOptions): Promise<AuthServer> {
  const host = '127.0.0.1'
  const keys = await loadOrCreateSigningKeys(options.keyFile)
  const port = await getPort({ host, port: options.port })
  const url = `http://${host}:${port}`
  const pool = createPool(options.databaseUrl)
  const ctx: AuthContext = {
    pool,
    keys,
    issuer: `${url}/auth/v1`,
    siteUrl: options.siteUrl,
    allowedRedirectOrigins: options.allowedRedirectOrigins ?? [],
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
    mailer: createMailer({ smtpUrl: options.smtpUrl, from: options.smtpFrom }),
    // Its own namespace: the app counts the same kinds of attempts on its side.
    rateLimiter: createRateLimiter(pool, undefined, 'auth'),
  }

  const server = http.createServer(createRequestListener(ctx))
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    await pool.end().catch(() => {})
    throw error
  }

  let stopping: Promise<void> | undefined
  return {
    url,
    anonKey: await signApiKey(keys, 'anon'),
    serviceRoleKey: await signApiKey(keys, 'service_role'),
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        // fetch() keeps connections alive; close them or server.close() waits for their timeout.
        server.closeAllConnections()
        await closed
        await pool.end()
      })()),
  }
}
