import type { ServerResponse } from 'node:http'

const TURN = Symbol('turn')
const nextTurn = () => new Promise<typeof TURN>((resolve) => setImmediate(resolve, TURN))

/**
 * Writes a Fetch response's body to the Node response as it comes, except that the chunks already there go out
 * together: React writes a page's shell as a hundred chunks of 2 KB within one task, and written one by one each
 * was a socket write (on loopback the kernel's whole receive path runs in it: ≈ 1–2 ms of CPU a page) and, behind
 * compression(), a flush of the deflate stream (a worse ratio too). A chunk that comes later (a streamed Suspense
 * boundary) is sent when it comes, as before: a batch ends when nothing more is there within the event loop's turn.
 * Rejects when the body fails (the response is then destroyed); a closed connection cancels the body.
 */
export async function writeResponseBody(body: ReadableStream<Uint8Array>, res: ServerResponse & { flush?: () => void }): Promise<void> {
  const reader = body.getReader()
  try {
    let read = reader.read()
    for (;;) {
      const first = await read
      if (first.done) break
      const batch = [first.value]
      for (;;) {
        read = reader.read()
        const next = await Promise.race([read, nextTurn()])
        if (next === TURN || next.done) break
        batch.push(next.value)
      }
      if (res.destroyed || res.writableEnded) {
        await reader.cancel().catch(() => {})
        return
      }
      const writable = res.write(batch.length === 1 ? batch[0]! : Buffer.concat(batch))
      // compression() buffers until flushed: each batch is sent as soon as it is written, as streaming needs.
      res.flush?.()
      if (!writable) await drained(res)
    }
    res.end()
  } catch (error) {
    await reader.cancel(error).catch(() => {})
    res.destroy(error instanceof Error ? error : undefined)
    throw error
  } finally {
    reader.releaseLock()
  }
}

/** Resolves when the response can take more, or has closed (the next write sees it). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
