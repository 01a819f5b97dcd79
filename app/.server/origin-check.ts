import { data, type MiddlewareFunction } from 'react-router'
import { getInstance } from './i18n.ts'
import { env } from '#app/.server/env.server.ts'
import { isPublicApiRequest } from '#app/.server/api-v1/operation.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests sent from another site (CSRF). React Router checks document
 * actions itself; this also covers resource routes (/preferences, /api/*). A request without
 * Origin (old browsers, same-origin navigations in some agents) falls back to Referer; with
 * neither it is allowed, since SameSite=Lax cookies keep cross-site posts unauthenticated.
 */
export const originCheckMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (isPublicApiRequest(request)) return next()
  if (SAFE_METHODS.has(request.method)) return next()
  const source = request.headers.get('Origin') ?? refererOrigin(request.headers.get('Referer'))
  if (source && (source === 'null' || !allowedOrigins(request).has(source))) {
    throw data({ error: 'cross_site', message: getInstance(context).t('errorPage.crossSite') }, { status: 403 })
  }
  return next()
}

function allowedOrigins(request: Request) {
  const origins = new Set([new URL(request.url).origin])
  if (env.APP_URL) origins.add(new URL(env.APP_URL).origin)
  return origins
}

function refererOrigin(referer: string | null) {
  if (!referer) return null
  try {
    return new URL(referer).origin
  } catch {
    return 'null'
  }
}
