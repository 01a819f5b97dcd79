/**
 * The loopback HTTP server both demo stand-ins (websites, registry) run on: a pure router answers each request, an
 * optional latency delays the answer, and the port is remembered across starts (server/remembered-port.ts).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { listenOnRememberedPort } from '../remembered-port.ts'

export interface DemoServerOptions {
  /** 0 or undefined: the port remembered in `dataDir` when given and free, else any free port. */
  port?: number
  host?: string
  /** Remember the port in `<dataDir>/ports.json` under the server's name and reuse it on the next start. */
  dataDir?: string
  /** Delay before each answer, in ms (benchmarks use it to stand in for real-world latency). */
  latencyMs?: number
  /** Observes every request (tests count them). */
  onRequest?: (request: { method: string; path: string }) => void
  /** Follows every request: called when it arrives, the function returned once its response is over (sent or abandoned). */
  track?: (path: string) => () => void
}

export interface DemoServer {
  url: string
  stop(): Promise<void>
}

export interface DemoReply {
  status: number
  headers: Record<string, string>
  body: string
  /** This answer's delay instead of the server's latency, in ms; Infinity: never answer (the client gives up). */
  delayMs?: number
}

export async function serveDemo(
  name: string,
  options: DemoServerOptions,
  route: (method: string, path: string, req: http.IncomingMessage) => DemoReply,
): Promise<DemoServer> {
  const { port = 0, host = '127.0.0.1', latencyMs = 0, onRequest, track, dataDir } = options
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    onRequest?.({ method, path })
    if (track) res.once('close', track(path))
    const reply = route(method, path, req)
    const send = () => {
      if (res.destroyed) return
      res.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body), 'Cache-Control': 'no-store' })
      res.end(method === 'HEAD' ? undefined : reply.body)
    }
    const delay = reply.delayMs ?? latencyMs
    // A hanging answer holds nothing but the socket, which closes when the client gives up.
    if (delay === Number.POSITIVE_INFINITY) return
    if (delay <= 0) return send()
    // A client that gives up first takes the pending answer's timer with it (thousands of aborted crawls leak none).
    const timer = setTimeout(send, delay)
    res.once('close', () => clearTimeout(timer))
  })
  await listenOnRememberedPort(server, { port, host, dataDir, name })
  const address = server.address() as AddressInfo
  // Listening on every interface still means "reach me on loopback" for the URL we hand out.
  const loopback = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address
  const urlHost = loopback.includes(':') ? `[${loopback}]` : loopback
  return {
    url: `http://${urlHost}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/** `npx tsx server/demo/<name>.ts` runs one on its own until Ctrl-C. */
export function stopOnSignals(server: DemoServer): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.stop().then(() => process.exit(0)))
}
