import { describe, expect, test } from 'vitest'
import { CoalescingStream } from '#app/.server/coalescing-stream.ts'

/** Every chunk the stream hands on, as text, until it ends. */
function collect(stream: CoalescingStream): Promise<string[]> {
  const chunks: string[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')))
  return new Promise((resolve, reject) => {
    stream.on('end', () => resolve(chunks))
    stream.on('error', reject)
  })
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('CoalescingStream', () => {
  test('the pieces written in one turn leave as one chunk, in order and intact', async () => {
    const stream = new CoalescingStream()
    const out = collect(stream)
    for (const piece of ['<html>', '<body>', 'é'.repeat(3), '</body>']) stream.write(piece)
    await nextTurn()
    stream.end('</html>')
    expect(await out).toEqual(['<html><body>ééé</body>', '</html>'])
  })

  test('a later flush (a Suspense boundary) is not held back until the end', async () => {
    const stream = new CoalescingStream()
    const seen: string[] = []
    stream.on('data', (chunk: Buffer) => seen.push(chunk.toString()))
    stream.write('shell')
    await nextTurn()
    expect(seen).toEqual(['shell'])
    stream.write('late')
    await nextTurn()
    expect(seen).toEqual(['shell', 'late'])
    stream.end()
  })

  test('ending hands on what is pending at once and calls onFinal once', async () => {
    let finals = 0
    const stream = new CoalescingStream({ onFinal: () => finals++ })
    const out = collect(stream)
    stream.write(Buffer.from('a'))
    stream.write('b')
    stream.end()
    expect(await out).toEqual(['ab'])
    expect(finals).toBe(1)
  })
})
