/**
 * A small HTTP listener that answers only /healthz, /readyz and /metrics (health.ts): the metrics port
 * (METRICS_PORT on METRICS_HOST) of the app and the worker, and the standalone worker's WORKER_HEALTH_PORT.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerOpsRequest, type OpsOptions } from './health.ts'

export interface OpsServer {
  url: string
  stop: () => Promise<void>
}

export async function startOpsServer({ port, host, ...options }: OpsOptions & { port: number; host: string }): Promise<OpsServer> {
  const server = http.createServer((req, res) => {
    const answer = answerOpsRequest(req, res, options)
    if (!answer) {
      res.statusCode = 404
      res.setHeader('Cache-Control', 'no-store')
      res.end('Not Found\n')
      return
    }
    answer.catch(() => {
      if (!res.headersSent) res.statusCode = 503
      res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Whether a pg-boss instance still runs: true until it emits `stopped`. */
export function trackQueue(boss: { once(event: 'stopped', listener: () => void): unknown }): () => { running: boolean } {
  let running = true
  boss.once('stopped', () => {
    running = false
  })
  return () => ({ running })
}
