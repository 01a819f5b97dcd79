/**
 * A webhook receiver on loopback for the tests and the bench: records each request (raw body, headers, arrival time)
 * and answers as told per path (status, delay). Deliveries are checked with standardwebhooks' own Webhook.verify.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface ReceivedDelivery {
  path: string
  headers: Record<string, string>
  body: string
  receivedAt: number
}

interface ReceiverBehaviour {
  status?: number
  delayMs?: number
  body?: string
}

export interface WebhookReceiver {
  /** host:port, for WEBHOOK_ALLOW_HOSTS. */
  host: string
  url(path?: string): string
  received: ReceivedDelivery[]
  /** How `path` answers from now on (default 204 at once). */
  behave(path: string, behaviour: ReceiverBehaviour): void
  /** Resolves once `count` requests reached `path` (or rejects after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>
  close(): Promise<void>
}

/** On `port` (default: a free one) of 127.0.0.1. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = []
  const behaviours = new Map<string, ReceiverBehaviour>()
  const waiters = new Set<() => void>()
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]))
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: performance.timeOrigin + performance.now() })
      for (const wake of waiters) wake()
      const behaviour = behaviours.get(path) ?? {}
      const timer = setTimeout(() => {
        response.writeHead(behaviour.status ?? 204)
        response.end(behaviour.body)
      }, behaviour.delayMs ?? 0)
      response.on('close', () => clearTimeout(timer))
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  const at = (path: string) => received.filter((delivery) => delivery.path === path)
  return {
    host,
    url: (path = '/hook') => `http://${host}${path}`,
    received,
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    waitFor(path, count, timeoutMs = 10_000) {
      if (at(path).length >= count) return Promise.resolve(at(path))
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (at(path).length < count) return
          waiters.delete(wake)
          clearTimeout(timer)
          resolve(at(path))
        }
        const timer = setTimeout(() => {
          waiters.delete(wake)
          reject(new Error(`${path}: ${at(path).length} of ${count} deliveries after ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(wake)
      })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The delivery's event, verified with the endpoint secret as a receiver would (throws when the signature is wrong). */
export function verifyDelivery(secret: string, delivery: ReceivedDelivery): { type: string; timestamp: string; data: { export?: { id: string; status: string } } } {
  return new Webhook(secret).verify(delivery.body, delivery.headers) as never
}
