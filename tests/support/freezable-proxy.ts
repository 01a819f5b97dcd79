import net from 'node:net'

/**
 * A TCP relay to a database that can be frozen like a SIGSTOPped Postgres: connections are still accepted
 * (the kernel does that) but nothing is answered, on open connections or new ones. Freezing the shared
 * test database itself would stall every other suite.
 */
export async function freezableProxy(databaseUrl: string) {
  const target = new URL(databaseUrl)
  const sockets = new Set<net.Socket>()
  const pairs: Array<[net.Socket, net.Socket]> = []
  let frozen = false
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  }
  const server = net.createServer((client) => {
    track(client)
    if (frozen) return void client.pause()
    const upstream = net.connect(Number(target.port), target.hostname)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    pairs.push([client, upstream])
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(databaseUrl)
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`
  return {
    url: url.toString(),
    freeze() {
      frozen = true
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
