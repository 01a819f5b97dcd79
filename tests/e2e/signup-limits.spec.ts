import { expect, test } from '@playwright/test'
import { startServer, stopServer, type BenchServer } from '../../bench/lib/server.ts'
import { uniqueEmail } from './support/users.ts'

// The shared e2e server raises the sign-up limits (every spec signs up from 127.0.0.1) and trusts
// no proxy, so these run against a server of their own: one proxy hop trusted (X-Forwarded-For
// names the client), the per-address and per-network limits at their defaults (20 an hour, 30 a
// day per /24), and a deployment-wide cap lowered to 40 an hour so it can be reached.
test.describe('sign-up limits', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'HTTP-level checks: once is enough')
  test.describe.configure({ timeout: 240_000 })

  let server: BenchServer
  test.beforeAll(async () => {
    server = await startServer({
      prefix: 'leadatlas-e2e-signup-limits-',
      env: { TRUST_PROXY: '1', RATE_LIMIT_SIGNUP_IP: '', RATE_LIMIT_SIGNUP_NETWORK: '', RATE_LIMIT_SIGNUP_GLOBAL: '40/3600' },
    })
  })
  test.afterAll(async () => {
    if (server) await stopServer(server)
  })

  const signUpFrom = (ip: string, language = 'en') =>
    fetch(`${server.url}/login?mode=signup`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip, 'Accept-Language': language },
      body: new URLSearchParams({ intent: 'signup', email: uniqueEmail('limits'), password: 'correct-horse-42' }),
      redirect: 'manual',
    })

  async function expectSignUps(ip: string, count: number) {
    for (let i = 0; i < count; i++) expect((await signUpFrom(ip)).status, `sign-up ${i + 1} from ${ip}`).toBe(302)
  }

  async function expectRefused(ip: string) {
    const refused = await signUpFrom(ip)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./)
  }

  test('a team of 20 behind one address signs up, the 21st is refused; a /24 holds 30 a day; the deployment its cap', async () => {
    await expectSignUps('203.0.113.10', 20)
    await expectRefused('203.0.113.10')
    const french = await signUpFrom('203.0.113.10', 'fr-FR')
    expect(french.status).toBe(429)
    expect(await french.text()).toMatch(/Trop de tentatives\. Veuillez réessayer dans \d+ minutes?\./)

    // Another address of the same /24: its own hourly limit is far, the network's daily one is not.
    await expectSignUps('203.0.113.20', 10)
    await expectRefused('203.0.113.20')

    // Another network is not affected, until the deployment's hourly cap (40; refused attempts
    // above did not count towards it).
    await expectSignUps('198.51.100.7', 10)
    await expectRefused('198.51.100.7')
    await expectRefused('192.0.2.55')
  })
})
