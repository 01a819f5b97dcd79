import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** A loopback URL nothing listens on (a port bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
