/**
 * `npm start` (and `npm run dev` with --dev): the embedded default. Checks the environment first, with only the
 * logger and the schema loaded, so a wrong setting stops start-up at once and names the variable; then loads and
 * starts every part (server/start-services.ts).
 */
import { componentLogger } from '#app/.server/observability/logger.ts'
import { logUncaughtErrors, routeConsoleToLogger } from '#app/.server/observability/process-errors.ts'
import { EnvError, validateEnv } from '#app/.server/env.server.ts'

const dev = process.argv.includes('--dev')
// JSON lines (app/.server/observability/logger.ts); the messages keep their `[leadatlas]` prefix, which people grep.
const logger = componentLogger('leadatlas')
// Before anything runs: every console line of this process (libraries, React) and every uncaught error is a log line.
routeConsoleToLogger(logger)
logUncaughtErrors(logger, 'leadatlas')

async function main() {
  // React, Express and Vite read NODE_ENV from process.env themselves: this write stays.
  process.env.NODE_ENV ??= dev ? 'development' : 'production'
  // A wrong value stops start-up here, before anything else is even loaded (EnvError names the variable).
  const config = validateEnv()
  const { startServices } = await import('./start-services.ts')
  await startServices(config, dev)
}

main().catch((error) => {
  // A configuration mistake is the operator's to fix: the message says which variable, a stack trace would not help.
  if (error instanceof EnvError) logger.fatal(`[leadatlas] failed to start: ${error.message}`)
  else logger.fatal({ err: error }, `[leadatlas] failed to start: ${(error as Error).message}`)
  process.exit(1)
})
