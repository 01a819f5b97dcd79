/**
 * A process's last word on errors nobody caught, and on console output: both go through the logger (one scrubbed
 * JSON line, logger.ts), never as a raw multi-line dump on stdout/stderr that skips the scrubber (issue 28: a forged
 * cursor's database error was printed with its query and values).
 */
import { format } from 'node:util'
import type { Logger } from './logger.ts'

type ConsoleMethod = 'error' | 'warn' | 'info' | 'log' | 'debug'
const LEVEL_OF = { error: 'error', warn: 'warn', info: 'info', log: 'info', debug: 'debug' } as const satisfies Record<ConsoleMethod, string>

/** console.error(…) and the others as log lines: the first Error among the arguments becomes `err` (its stack). */
export function routeConsoleToLogger(logger: Logger): void {
  for (const method of Object.keys(LEVEL_OF) as ConsoleMethod[]) {
    const level = LEVEL_OF[method]
    console[method] = (...args: unknown[]) => {
      const err = args.find((arg) => arg instanceof Error)
      const message = format(...args.filter((arg) => arg !== err))
      if (err) logger[level]({ err }, message || (err as Error).message)
      else logger[level](message)
    }
  }
}

/**
 * Logs what escaped every handler: a stray rejection (a closed socket, a job callback) is logged and the process goes
 * on serving; an uncaught exception leaves the process in an unknown state, so it is logged as fatal and the process exits.
 */
export function logUncaughtErrors(logger: Logger, prefix: string): void {
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, `[${prefix}] unhandled rejection`))
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, `[${prefix}] uncaught exception`)
    process.exit(1)
  })
}
