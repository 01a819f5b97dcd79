/**
 * The one logger: JSON lines on stdout (pino), level from LOG_LEVEL (default info; `silent` turns logging off). Each
 * process part logs through a child with a `component` field; lines written while a request is served carry its
 * request id and, once known, the user id (request-context.ts).
 *
 * A person reads a terminal, a machine reads a pipe or a file: when stdout is a TTY (`npm start` in a shell) the lines
 * are printed readable by pino-pretty if it is installed; redirected, or without pino-pretty, they stay JSON.
 *
 * Nothing personal or secret may reach a line: header and field names that hold credentials are redacted, and every
 * string (message, URL, error) has its email addresses removed (scrub.ts).
 */
import { createRequire } from 'node:module'
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

type Prettifier = (options: Record<string, unknown>) => DestinationStream

/**
 * pino-pretty's stream factory, or undefined when the package is not installed. Loaded at run time (not imported) so
 * that a deployment without it, or a build that does not bundle it, still starts and logs JSON.
 */
export function loadPrettifier(): Prettifier | undefined {
  try {
    return createRequire(import.meta.url)('pino-pretty') as Prettifier
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined
    throw error
  }
}

/** Where the lines go: `destination` as is (JSON), or through pino-pretty when they are for a person and it is there. */
function output(destination: DestinationStream | undefined, readable: boolean): DestinationStream | undefined {
  const prettifier = readable ? loadPrettifier() : undefined
  if (!prettifier) return destination
  // sync: a line written just before the process exits (a failed start) is not lost in a buffer.
  return prettifier({ destination: destination ?? 1, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
}

/**
 * `readable` (default: stdout is a TTY and no destination was given) asks for lines a person reads; it falls back to
 * JSON when pino-pretty is not installed.
 */
export function createLogger({
  level = levelFromEnvironment(),
  destination,
  readable = destination === undefined && process.stdout.isTTY === true,
}: { level?: Level | 'silent'; destination?: DestinationStream; readable?: boolean } = {}): Logger {
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
  const stream = output(destination, readable)
  return stream ? pino(options, stream) : pino(options)
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
