// Security headers of the HTTP layer (server/http-app.ts), on a bare Express app.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { describe, expect, test } from 'vitest'
import { securityHeaders } from '#server/http-app.ts'

async function headersFor(options: Parameters<typeof securityHeaders>[0]) {
  const app = express()
  app.use((_req, res, next) => {
    res.locals.cspNonce = 'bm9uY2Utbm9uY2Utbm9uY2U='
    next()
  })
  app.use(securityHeaders(options))
  app.get('/', (_req, res) => void res.send('ok'))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    return response.headers
  } finally {
    server.close()
  }
}

describe('security headers', () => {
  test('production over https: nonce CSP, HSTS, no framing, nosniff', async () => {
    const headers = await headersFor({ mode: 'production', appUrl: 'https://app.example.com' })
    const csp = headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self' 'nonce-bm9uY2Utbm9uY2Utbm9uY2U='")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain('upgrade-insecure-requests')
    expect(csp).not.toContain('unsafe-eval')
    expect(headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
    expect(headers.get('x-frame-options')).toBe('DENY')
    expect(headers.get('x-content-type-options')).toBe('nosniff')
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  test('plain http (local): no HSTS, no upgrade of requests', async () => {
    const headers = await headersFor({ mode: 'production', appUrl: 'http://127.0.0.1:3000' })
    expect(headers.get('strict-transport-security')).toBeNull()
    expect(headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests')
  })

  test('development leaves the CSP to Vite but keeps the other headers', async () => {
    const headers = await headersFor({ mode: 'development', appUrl: 'http://127.0.0.1:3000' })
    expect(headers.get('content-security-policy')).toBeNull()
    expect(headers.get('x-content-type-options')).toBe('nosniff')
  })
})
