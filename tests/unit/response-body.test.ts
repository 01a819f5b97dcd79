// server/response-body.ts: a response body's chunks that arrive together are written as one, later ones as they come.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { writeResponseBody } from '#server/response-body.ts'

const text = (value: string) => new TextEncoder().encode(value)

/** Serves `body()` through writeResponseBody; returns what the client read and the writes the response received. */
async function serve(body: () => ReadableStream<Uint8Array>) {
  const writes: string[] = []
  let failure: unknown
  const server = http.createServer((_req, res) => {
    const write = res.write.bind(res) as (chunk: Uint8Array) => boolean
    res.write = ((chunk: Uint8Array) => {
      writes.push(Buffer.from(chunk).toString())
      return write(chunk)
    }) as typeof res.write
    writeResponseBody(body(), res).catch((error: unknown) => (failure = error))
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const received = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      .then((response) => response.text())
      .catch((error: unknown) => error)
    return { received, writes, failure }
  } finally {
    server.close()
  }
}

describe('writeResponseBody', () => {
  test('writes the chunks that are there together as one, and a later chunk when it comes', async () => {
    const { received, writes } = await serve(
      () =>
        new ReadableStream({
          async start(controller) {
            for (let i = 0; i < 100; i++) controller.enqueue(text(`<p>${i}</p>`))
            await new Promise((resolve) => setTimeout(resolve, 30))
            controller.enqueue(text('<late/>'))
            controller.close()
          },
        }),
    )
    expect(received).toBe(`${Array.from({ length: 100 }, (_, i) => `<p>${i}</p>`).join('')}<late/>`)
    expect(writes).toHaveLength(2)
    expect(writes[1]).toBe('<late/>')
  })

  test('a body that fails destroys the response and rejects', async () => {
    const { received, failure } = await serve(
      () =>
        new ReadableStream({
          async start(controller) {
            controller.enqueue(text('<p>start</p>'))
            await new Promise((resolve) => setTimeout(resolve, 10))
            controller.error(new Error('render failed'))
          },
        }),
    )
    expect(received).toBeInstanceOf(Error)
    expect((failure as Error).message).toBe('render failed')
  })
})
