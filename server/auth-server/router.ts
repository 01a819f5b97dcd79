import type { IncomingMessage, ServerResponse } from 'node:http'
import { getUser, logout, signUp, token, updateUser } from './account-handlers.ts'
import type { AuthContext } from './context.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'
import type { LimitName } from '#app/.server/rate-limiter.ts'
import { AuthError, rateLimited, serviceUnavailable } from './errors.ts'
import { clientAddress, sendError, sendJson, sendNoContent } from './http.ts'
import { health, jwks, settings } from './meta-handlers.ts'
import { recover, verify } from './recovery-handlers.ts'
import type { Reply } from './reply.ts'
import { apiKeyRole } from './tokens.ts'

type Handler = (ctx: AuthContext, req: IncomingMessage, url: URL) => Promise<Reply>

interface Route {
  handler: Handler
  /** Hosted Supabase's gateway refuses requests without a valid `apikey`; a few public endpoints excepted. */
  needsApiKey: boolean
  /** Counted per client address, like GoTrue's RATE_LIMIT_VERIFY / RATE_LIMIT_TOKEN_REFRESH. */
  limit?: LimitName
}

const PREFIX = '/auth/v1'

const routes: Record<string, Partial<Record<string, Route>>> = {
  '/health': { GET: { handler: health, needsApiKey: false } },
  '/.well-known/jwks.json': { GET: { handler: jwks, needsApiKey: false } },
  '/settings': { GET: { handler: settings, needsApiKey: true } },
  '/signup': { POST: { handler: signUp, needsApiKey: true } },
  '/token': { POST: { handler: token, needsApiKey: true, limit: 'tokenIp' } },
  '/user': { GET: { handler: getUser, needsApiKey: true }, PUT: { handler: updateUser, needsApiKey: true } },
  '/recover': { POST: { handler: recover, needsApiKey: true } },
  '/verify': { POST: { handler: verify, needsApiKey: true, limit: 'verifyIp' } },
  '/logout': { POST: { handler: logout, needsApiKey: true } },
}

export function createRequestListener(ctx: AuthContext) {
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(ctx, req, res).catch((error: unknown) => {
      // Only reached for unexpected failures; expected ones are AuthErrors answered below.
      console.error('[auth-server]', error)
      if (!res.headersSent) sendError(res, new AuthError(500, 'unexpected_failure', 'Unexpected failure'))
      else res.destroy()
    })
  }
}

async function handle(ctx: AuthContext, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const path = url.pathname.replace(/\/+$/, '')
  const methods = path.startsWith(PREFIX) ? routes[path.slice(PREFIX.length)] : undefined
  try {
    if (!methods) throw new AuthError(404, 'not_found', 'Not found')
    if (req.method === 'OPTIONS') {
      // Only server-side clients talk to this server, so no CORS; just answer preflights politely.
      sendNoContent(res, { Allow: [...Object.keys(methods), 'OPTIONS'].join(', ') })
      return
    }
    const route = methods[req.method ?? '']
    if (!route) throw new AuthError(405, 'method_not_allowed', `Method ${req.method} not allowed`)
    if (route.needsApiKey) await requireApiKey(ctx, req, url)
    if (route.limit) {
      const outcome = await ctx.rateLimiter.consume(route.limit, clientAddress(req))
      if (!outcome.ok) throw rateLimited(outcome.retryAfterSeconds)
    }
    const reply = await route.handler(ctx, req, url)
    if ('body' in reply) sendJson(res, reply.status, reply.body)
    else sendNoContent(res)
  } catch (error) {
    if (error instanceof AuthError) sendError(res, error)
    else if (isDatabaseUnavailable(error)) sendError(res, serviceUnavailable())
    else throw error
  }
}

/** Mirrors the hosted gateway: the anon or service_role key must come along in `apikey`. */
async function requireApiKey(ctx: AuthContext, req: IncomingMessage, url: URL) {
  const header = req.headers.apikey
  const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
  if (!apiKey) throw new AuthError(401, 'no_api_key', 'No API key found in request')
  if (!(await apiKeyRole(ctx.keys, apiKey))) throw new AuthError(401, 'invalid_api_key', 'Invalid API key')
}
