/**
 * The Express app in front of React Router: security headers, body limits and the adapter that
 * turns a Node request into a Fetch Request. Everything a hostile request can break at the HTTP
 * layer (size, encoding, method, Host) is answered here or marked for the root middleware
 * (app/.server/request-guard.ts), which renders the localized 4xx page.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import compression from 'compression'
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from 'express'
import expressStaticGzip from 'express-static-gzip'
import helmet from 'helmet'
import type pg from 'pg'
import { pinoHttp } from 'pino-http'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { answerOpsRequest, type QueueState } from '#app/.server/observability/health.ts'
import { componentLogger, type Logger } from '#app/.server/observability/logger.ts'
import { observeHttpRequest } from '#app/.server/observability/metrics.ts'
import { runWithRequest, type RequestObservation } from '#app/.server/observability/request-context.ts'
import { routeLabel } from '#app/.server/observability/route-label.ts'
import { scrubUrl } from '#app/.server/observability/scrub.ts'
import {
  CLIENT_IP_HEADER,
  CSP_NONCE_HEADER,
  INTERNAL_HEADER_PREFIX,
  REJECTION_HEADER,
  type Rejection,
} from '#app/.server/internal-headers.ts'
import { writeResponseBody } from './response-body.ts'
import { oauthAuthorizeOrigins } from '#app/.server/integrations/oauth-apps.ts'
import { LIST_MAX_FILE_BYTES } from '#app/domain/list-columns.ts'

/** Forms are a few fields; JSON bodies (the API, Stripe webhooks) are small objects. */
const FORM_BODY_LIMIT = 100 * 1024
const JSON_BODY_LIMIT = 1024 * 1024
/** A list upload (issue 31): the file (LIST_MAX_FILE_BYTES at most, said on the page) and its form's few fields. */
const LIST_UPLOAD_LIMIT = LIST_MAX_FILE_BYTES + 256 * 1024
// The page's form posts to /lists/new without JavaScript and to /lists/new.data with it (React Router's data request).
const LIST_UPLOAD_PATHS = ['/lists/new', '/lists/new.data', '/api/v1/enrichments']

/** Methods Node parses but the Fetch API refuses to carry: answered 405 by the app. */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

export interface HttpAppOptions {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode: 'production' | 'development'
  /** Public origin (APP_URL): https turns on HSTS. */
  appUrl: string
  /** Client build directory served statically (production). */
  clientDir?: string
  /** Express middlewares mounted before the app (Vite in development). */
  before?: express.RequestHandler[]
  /** TRUST_PROXY: a hop count or the proxies' addresses (never `true`: the client would choose its IP). */
  trustProxy?: number | string[]
  /** Where request lines go (default: the process's logger, component `http`). */
  logger?: Logger
  /**
   * /healthz and /readyz (and /metrics when `metricsToken` is set) on this port, before the app: the pool they
   * query and this process's queue when it runs one.
   */
  ops?: { pool: () => pg.Pool; queue?: () => QueueState | undefined; metricsToken?: string }
}

/** An incoming X-Request-Id is kept when it looks like an id (a proxy's or a client's), else a new one is made. */
const REQUEST_ID = /^[\w.:@-]{1,128}$/

export function createHttpApp(options: HttpAppOptions): express.Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', options.trustProxy ?? false)

  app.use(requestLogging(options.logger ?? componentLogger('http')))
  // Everything after runs in the request's context: the app's log lines carry its id and user (logger.ts).
  app.use((_req, res, next) => runWithRequest(res.locals.observation as RequestObservation, next))
  app.use(requestMetrics)
  if (options.ops) app.use(opsEndpoints(options.ops))
  app.use(internalHeaders)
  app.use(securityHeaders(options))
  app.use(compression())
  for (const middleware of options.before ?? []) app.use(middleware)
  if (options.clientDir) {
    // The build writes .br and .gz beside each script and stylesheet (vite.config.ts): served as they
    // are, brotli first, so no request pays for compression (compression() skips encoded responses).
    const precompressed = { enableBrotli: true, orderPreference: ['br', 'gzip'], index: false }
    app.use('/assets', expressStaticGzip(path.join(options.clientDir, 'assets'), { ...precompressed, serveStatic: { immutable: true, maxAge: '1y' } }))
    // The build's other files (favicon.svg…) all have an extension: a page's path skips the file lookup (a stat).
    const files = expressStaticGzip(options.clientDir, { ...precompressed, serveStatic: { maxAge: '1h' } })
    app.use((req, res, next) => (FILE_NAME.test(req.path) ? files(req, res, next) : next()))
  }

  const handle = createRequestHandler(options.build, options.mode)
  // JSON may be larger than a form; anything else (forms, text, broken types) gets the form cap.
  // Compressed bodies are inflated with the cap applied to the inflated size.
  app.use(LIST_UPLOAD_PATHS, express.raw({ type: isMultipart, limit: LIST_UPLOAD_LIMIT }))
  app.use(express.raw({ type: isJson, limit: JSON_BODY_LIMIT }))
  app.use(express.raw({ type: () => true, limit: FORM_BODY_LIMIT }))
  app.use(bodyErrors)
  app.use((req, res, next) => void serve(handle, options.build, req, res).catch(next))
  app.use(lastResort)
  return app
}

/**
 * One JSON line per request (pino-http): id (echoed as X-Request-Id), method, the URL without emails or secret
 * parameters, status, duration, the route, and the signed-in user's id once the app has resolved it. Probes are not
 * logged: a load balancer asks every few seconds.
 */
function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id']
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      res.setHeader('X-Request-Id', id)
      const observation: RequestObservation = { requestId: id }
      ;(res as ExpressResponse).locals.observation = observation
      return id
    },
    customProps: (_req, res) => {
      const { observation, route } = (res as ExpressResponse).locals as { observation?: RequestObservation; route?: string }
      return { ...(route ? { route } : {}), ...(observation?.userId ? { userId: observation.userId } : {}) }
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    autoLogging: { ignore: (req) => OPS_PATHS.has((req.url ?? '').split('?')[0]!) },
    serializers: {
      req: (req: { id: unknown; method: string; url: string; raw?: { originalUrl?: string } }) => ({ id: req.id, method: req.method, url: scrubUrl(req.raw?.originalUrl ?? req.url) }),
      // The raw response: pino's own serializer says null when the client left before the headers went out.
      res: (res: { statusCode: number | null; raw?: { statusCode: number } }) => ({ statusCode: res.raw?.statusCode ?? res.statusCode }),
    },
  })
}

const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics'])
/** A path whose last segment has an extension: what a static file's path looks like. */
const FILE_NAME = /\.[^/]+$/

/** Request durations by route and status (the route is set by serve(), or names the probe answered). */
function requestMetrics(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  const started = process.hrtime.bigint()
  res.once('finish', () => {
    const route = (res.locals.route as string | undefined) ?? (OPS_PATHS.has(req.path) ? req.path : 'static')
    observeHttpRequest({ method: req.method, route, status: res.statusCode }, Number(process.hrtime.bigint() - started) / 1e9)
  })
  next()
}

function opsEndpoints(ops: NonNullable<HttpAppOptions['ops']>) {
  const options = { ...ops, metrics: ops.metricsToken ? { token: ops.metricsToken } : (false as const) }
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const answer = answerOpsRequest(req, res, options)
    if (answer) answer.catch(next)
    else next()
  }
}

/** Drops client-sent internal headers, then sets the client IP and a fresh CSP nonce. */
function internalHeaders(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  for (const name of Object.keys(req.headers)) if (name.startsWith(INTERNAL_HEADER_PREFIX)) delete req.headers[name]
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown'
  const nonce = crypto.randomBytes(16).toString('base64')
  res.locals.cspNonce = nonce
  req.headers[CSP_NONCE_HEADER] = nonce
  if (FETCH_FORBIDDEN_METHODS.has(req.method)) reject(req, 'method')
  next()
}

export function securityHeaders({ mode, appUrl }: Pick<HttpAppOptions, 'mode' | 'appUrl'>) {
  const https = appUrl.startsWith('https:')
  return helmet({
    // React Router's hydration data and module loader are inline scripts: each carries this
    // response's nonce (app/entry.server.tsx). Vite's dev server injects its own, so dev has none.
    contentSecurityPolicy:
      mode === 'production'
        ? {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as ExpressResponse).locals.cspNonce}'`],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:'],
              fontSrc: ["'self'"],
              connectSrc: ["'self'"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              frameAncestors: ["'none'"],
              // Checkout and the customer portal, and a CRM's OAuth authorization page, are reached by a redirect after a form post.
              formAction: ["'self'", 'https://checkout.stripe.com', 'https://billing.stripe.com', ...oauthAuthorizeOrigins()],
              ...(https ? { upgradeInsecureRequests: [] } : {}),
            },
          }
        : false,
    strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  })
}

function isMultipart(req: { headers: Record<string, string | string[] | undefined> }) {
  return String(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')
}

function isJson(req: { headers: Record<string, string | string[] | undefined> }) {
  const type = String(req.headers['content-type'] ?? '').toLowerCase()
  return /^application\/([\w.+-]+\+)?json\b/.test(type)
}

function reject(req: ExpressRequest, rejection: Rejection) {
  req.headers[REJECTION_HEADER] = rejection
  req.body = undefined
}

/** body-parser's refusals become marked requests, answered by the app in the user's language. */
function bodyErrors(error: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  const { status, type } = (error ?? {}) as { status?: number; type?: string }
  if (type === 'request.aborted' || req.socket.destroyed) {
    res.destroy()
    return
  }
  if (status === 413) reject(req, 'too-large')
  else if (status === 415) reject(req, 'unsupported-encoding')
  else if (status && status >= 400 && status < 500) reject(req, 'malformed')
  else return next(error)
  next()
}

async function serve(handle: ReturnType<typeof createRequestHandler>, build: HttpAppOptions['build'], req: ExpressRequest, res: ExpressResponse) {
  res.locals.route = routeLabel(typeof build === 'function' ? await build() : build, req.path)
  const request = toFetchRequest(req, res)
  if (!request) {
    res.status(400).type('text/plain').send('Bad Request')
    return
  }
  const response = await handle(request)
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel()
    return
  }
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [key, value] of response.headers.entries()) res.append(key, value)
  if (response.body) {
    try {
      await writeResponseBody(response.body, res)
    } catch (error) {
      if (!res.destroyed && !res.writableEnded) throw error
    }
  } else {
    res.end()
  }
}

/** The Fetch Request React Router sees; null when the Host header cannot form a URL. */
function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request | null {
  let url: URL
  try {
    url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`)
  } catch {
    return null
  }
  const headers = new Headers()
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue
    try {
      for (const value of Array.isArray(values) ? values : [values]) headers.append(key, value)
    } catch {
      // A header the Fetch API refuses (invalid characters): the app never needs it.
    }
  }
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const rejected = headers.has(REJECTION_HEADER)
  const method = rejected && FETCH_FORBIDDEN_METHODS.has(req.method) ? 'GET' : req.method
  const body = !rejected && method !== 'GET' && method !== 'HEAD' && Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : undefined
  // The body is already read (and inflated): drop the framing headers that described the wire form.
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  headers.delete('content-encoding')
  return new Request(url.href, { method, headers, body, signal: controller.signal })
}

/** Nothing a request does may take the process down: log, answer 500 if we still can. */
function lastResort(error: unknown, req: ExpressRequest, res: ExpressResponse, _next: NextFunction) {
  ;(req as ExpressRequest & { log?: Logger }).log?.error({ err: error }, '[http] unhandled error')
  if (res.headersSent) res.destroy()
  else res.status(500).type('text/plain').send('Internal Server Error')
}
