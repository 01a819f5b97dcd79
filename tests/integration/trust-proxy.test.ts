// TRUST_PROXY (issue 18, item 5): behind a proxy the per-IP limits must see the address the proxy itself appended
// (the rightmost untrusted X-Forwarded-For entry), never one the client wrote to the left of it. The real HTTP layer
// (server/http-app.ts) and the real limiter counting in Postgres; a terminal middleware stands in for the app.
import crypto from 'node:crypto'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { afterAll, expect, inject, test } from 'vitest'
import { parseEnv } from '#app/.server/env.server.ts'
import { CLIENT_IP_HEADER } from '#app/.server/internal-headers.ts'
import { createRateLimiter } from '#app/.server/rate-limiter.ts'
import { createHttpApp } from '#server/http-app.ts'

const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
afterAll(() => pool.end())

/** The HTTP layer with TRUST_PROXY=`trustProxy`; each request counts one sign-up for the IP it resolved. */
async function signUpEndpoint(trustProxy: string) {
  const config = parseEnv({ TRUST_PROXY: trustProxy, RATE_LIMIT_SIGNUP_IP: '5/3600' })
  const limiter = createRateLimiter(pool, config, `trust-proxy-${crypto.randomUUID()}`)
  const app = createHttpApp({
    mode: 'production',
    appUrl: 'http://127.0.0.1',
    trustProxy: config.TRUST_PROXY,
    build: () => Promise.reject(new Error('the app is not reached')),
    before: [
      (req, res, next) => {
        const ip = String(req.headers[CLIENT_IP_HEADER])
        limiter.consume('signupIp', ip).then((outcome) => res.status(outcome.ok ? 200 : 429).json({ ip }), next)
      },
    ],
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const signUp = async (forwardedFor: string) => {
    const response = await fetch(url, { headers: { 'X-Forwarded-For': forwardedFor } })
    return { status: response.status, ip: ((await response.json()) as { ip: string }).ip }
  }
  return { signUp, close: () => new Promise((resolve) => server.close(resolve)) }
}

test.each([
  ['a hop count of 1', '1'],
  ['the proxy addresses (loopback CIDR)', '127.0.0.0/8,::1'],
])('with %s, a spoofed leftmost X-Forwarded-For entry does not change the IP the limiter sees', async (_label, trustProxy) => {
  const endpoint = await signUpEndpoint(trustProxy)
  try {
    // The proxy (this loopback peer) appends the address it saw: 203.0.113.7. The client sends a new lie each time.
    const attempts = []
    for (let i = 1; i <= 8; i++) attempts.push(await endpoint.signUp(`198.51.100.${i}, 203.0.113.7`))
    expect(attempts.map((attempt) => attempt.ip)).toEqual(Array(8).fill('203.0.113.7'))
    expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429])
  } finally {
    await endpoint.close()
  }
})
