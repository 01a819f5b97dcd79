/**
 * The CRM fakes for the end-to-end run and the bench, as one process: HubSpot on `--port`, Pipedrive on port + 1.
 * Each credential gets a fake account of its own (created at its first request), so specs running at once — and
 * the JS and no-JS projects — never see each other's companies. Used as a Playwright webServer:
 * `tsx tests/support/crm-fakes/serve.ts --port 3120`.
 */
import http from 'node:http'
import { startFakeHubspot, type FakeHubspot } from './hubspot.ts'
import { startFakeOAuth } from './oauth.ts'
import { startFakePipedrive, type FakePipedrive } from './pipedrive.ts'

type Fake = FakeHubspot | FakePipedrive

/** A front on `port` that forwards each request to the fake account of its credential. */
function tenantFront(port: number, credentialOf: (request: http.IncomingMessage) => string | null, start: (credential: string) => Promise<Fake>): Promise<http.Server> {
  const accounts = new Map<string, Promise<Fake>>()
  const server = http.createServer(async (request, response) => {
    const credential = credentialOf(request) ?? 'anonymous'
    let account = accounts.get(credential)
    if (!account) accounts.set(credential, (account = start(credential)))
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    try {
      const fake = await account
      const upstream = await fetch(`${fake.url}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers: Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length') as Array<[string, string]>),
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      })
      response.writeHead(upstream.status, Object.fromEntries(upstream.headers.entries()))
      response.end(Buffer.from(await upstream.arrayBuffer()))
    } catch (error) {
      response.writeHead(502, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ message: error instanceof Error ? error.message : 'fake unavailable' }))
    }
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}

const bearer = (request: http.IncomingMessage) => request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? null
const apiToken = (request: http.IncomingMessage) => (typeof request.headers['x-api-token'] === 'string' ? request.headers['x-api-token'] : null)

const portArg = process.argv.indexOf('--port')
const port = Number(portArg >= 0 ? process.argv[portArg + 1] : (process.env.CRM_FAKES_PORT ?? 3120))
// Any credential is an account of its own, except one containing "wrong": its account accepts no credential, as a
// CRM refuses a mistyped token (401).
const accepted = (token: string) => (token.includes('wrong') ? `refused-${token}` : token)
await tenantFront(port, bearer, (token) => startFakeHubspot({ token: accepted(token) }))
await tenantFront(port + 1, apiToken, (token) => startFakePipedrive({ token: accepted(token) }))
// Ready: Playwright waits for this URL.
http.createServer((_, response) => response.end('ok')).listen(port + 2, '127.0.0.1')
// HubSpot's OAuth server on port + 3: each approval hands out a token of its own, so an account of its own above.
await startFakeOAuth({ clientId: 'e2e-hubspot-app', clientSecret: 'e2e-hubspot-secret', accessToken: (code) => `pat-eu1-oauth-${code}`, port: port + 3 })
console.log(`CRM fakes: HubSpot http://127.0.0.1:${port}, Pipedrive http://127.0.0.1:${port + 1}`)
