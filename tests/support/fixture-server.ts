/**
 * A loopback HTTP server that plays recorded upstream responses (Overpass, Google Places…) and records what it was
 * sent, so source tests check both directions without touching the real services.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

interface RecordedRequest {
  method: string
  /** Path and query, as received. */
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The body parsed as JSON when it is JSON, else undefined. */
  json: unknown
  /** The body parsed as an HTML form when it is one, else undefined. */
  form: URLSearchParams | undefined
}

export interface FixtureResponse {
  status?: number
  headers?: Record<string, string>
  /** Objects are sent as JSON. */
  body?: string | object
  /** Wait before answering (timeout tests). */
  delayMs?: number
}

export type FixtureHandler = (request: RecordedRequest, index: number) => FixtureResponse | Promise<FixtureResponse>

export interface FixtureServer {
  /** Base URL without trailing slash. */
  url: string
  requests: RecordedRequest[]
  stop: () => Promise<void>
}

export async function startFixtureServer(handler: FixtureHandler): Promise<FixtureServer> {
  const requests: RecordedRequest[] = []
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const type = req.headers['content-type'] ?? ''
    let json: unknown
    if (type.includes('json')) {
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      json,
      form: type.includes('x-www-form-urlencoded') ? new URLSearchParams(body) : undefined,
    }
    requests.push(recorded)
    try {
      const reply = await handler(recorded, requests.length - 1)
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
      if (res.destroyed) return
      const payload = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body)
      const headers = { 'Content-Type': typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', ...reply.headers }
      res.writeHead(reply.status ?? 200, headers)
      res.end(payload)
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end(`fixture handler failed: ${(error as Error).message}`)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/**
 * Fixture servers a test file starts as it goes (`serve`) and stops after each test (`stopAll` in afterEach): a
 * test never inherits another's server.
 */
export function fixtureServers() {
  let servers: FixtureServer[] = []
  return {
    async serve(handler: FixtureHandler): Promise<FixtureServer> {
      const server = await startFixtureServer(handler)
      servers.push(server)
      return server
    },
    async stopAll(): Promise<void> {
      await Promise.all(servers.map((server) => server.stop()))
      servers = []
    },
  }
}
