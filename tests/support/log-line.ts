/**
 * Writes one log line through the process's own logger (as `npm start` does), for tests/integration/log-format.test.ts,
 * which runs it with stdout on a pipe and on a terminal.
 */
import { componentLogger } from '#app/.server/observability/logger.ts'

componentLogger('leadatlas').info({ port: 3000 }, '[leadatlas] Listening on http://127.0.0.1:3000')
