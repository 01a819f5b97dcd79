import { validateEnv, type Env } from './env.server.ts'

/** Added to the statement timeout on the client side, for a server that accepts the connection but never answers. */
const CLIENT_BACKSTOP_MS = 2_000

/**
 * pg pool settings so that a request never waits on the database for longer than a user would: a slow
 * statement is cancelled by Postgres (statement_timeout), a paused or unreachable server by the client
 * (connection and query timeouts). The app's pool and the local auth server's use the same ones.
 */
export function databaseTimeouts(config: Env = validateEnv()) {
  const statement = config.DB_STATEMENT_TIMEOUT_MS
  return {
    connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: statement,
    query_timeout: statement + CLIENT_BACKSTOP_MS,
    idle_in_transaction_session_timeout: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  }
}

/**
 * The longest a page waits before answering 503 when the database cannot answer: one query's client-side
 * timeout (an open connection that never answers) or the connection timeout, whichever is longer. Work that
 * chains several database calls (sign-in: the app, then the auth server) keeps to it as one deadline.
 */
export function databaseAnswerBoundMs(config: Env = validateEnv()): number {
  const { connectionTimeoutMillis, query_timeout } = databaseTimeouts(config)
  return Math.max(connectionTimeoutMillis, query_timeout)
}
