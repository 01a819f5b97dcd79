/**
 * The one logger: JSON lines on stdout (pino), level from LOG_LEVEL (default info; `silent` turns logging off). Each
 * process part logs through a child with a `component` field; lines written while a request is served carry its
 * request id and, once known, the user id (request-context.ts).
 *
 * Nothing personal or secret may reach a line: header and field names that hold credentials are redacted, and every
 * string (message, URL, error) has its email addresses removed (scrub.ts).
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino'
import { currentRequest } from './request-context.ts'
import { REDACTED, scrubText, scrubValue } from './scrub.ts'

export type { Logger } from 'pino'

const LEVELS = new Set<string>(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

/** LOG_LEVEL, read before the configuration is validated (start-up logs come first); a wrong value gets `info`. */
function levelFromEnvironment(): Level | 'silent' {
  const wanted = process.env.LOG_LEVEL?.trim().toLowerCase() ?? ''
  return LEVELS.has(wanted) ? (wanted as Level | 'silent') : 'info'
}

const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...['password', 'token', 'secret', 'apiKey', 'authorization', 'cookie', 'email'].flatMap((field) => [field, `*.${field}`]),
]

export function createLogger({ level = levelFromEnvironment(), destination }: { level?: Level | 'silent'; destination?: DestinationStream } = {}): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    mixin(_object, _level, logger) {
      const request = currentRequest()
      // The request's own line (pino-http) binds these itself: a second copy would repeat the keys.
      if (!request || 'requestId' in logger.bindings()) return {}
      return request.userId ? { requestId: request.requestId, userId: request.userId } : { requestId: request.requestId }
    },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrubValue(object) as Record<string, unknown>,
    },
    hooks: {
      // Messages are built by callers from anything (an export's error, an address it failed on): scrubbed here.
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>,
        )
      },
    },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  }
  return destination ? pino(options, destination) : pino(options)
}

let root: Logger | undefined

/** The process's logger (created on first use). */
function rootLogger(): Logger {
  root ??= createLogger()
  return root
}

/** A child logger naming the part of the process that writes (`leadatlas`, `http`, `worker`, `webhooks`...). */
export function componentLogger(component: string, parent: Logger = rootLogger()): Logger {
  return parent.child({ component })
}
