import { describe, expect, test } from 'vitest'
import { keyedQueue, QueueFull } from '#app/.server/keyed-queue.ts'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('keyedQueue', () => {
  test('one key: its limit runs, its waiters wait, its surplus is refused at once; other keys are not affected', async () => {
    const queue = keyedQueue({ concurrency: 1, maxWaiting: 2 })
    const gate = deferred()
    let running = 0
    let most = 0
    const job = async () => {
      running++
      most = Math.max(most, running)
      await gate.promise
      running--
      return 'done'
    }
    const burst = Array.from({ length: 10 }, () => queue.run('203.0.113.1', job).catch((error: unknown) => error))
    // Another key is served while the first is busy.
    expect(await queue.run('203.0.113.2', async () => 'other')).toBe('other')
    gate.resolve()
    const results = await Promise.all(burst)
    expect(results.filter((r) => r === 'done')).toHaveLength(3)
    expect(results.filter((r) => r instanceof QueueFull)).toHaveLength(7)
    expect(most).toBe(1)
    // Nothing is kept for idle keys, and a failing job frees its place too.
    expect(queue.size).toBe(0)
    await expect(queue.run('203.0.113.1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(queue.size).toBe(0)
  })
})

describe('refusal pause (tarpit)', () => {
  test('a person waits 2 s; a client with many refusals waiting waits longer, up to 10 s', async () => {
    const { refusalPauseMs } = await import('#app/.server/rate-limit.ts')
    expect(refusalPauseMs(0)).toBe(2_000)
    expect(refusalPauseMs(7)).toBe(2_000)
    expect(refusalPauseMs(8)).toBe(4_000)
    expect(refusalPauseMs(24)).toBe(8_000)
    expect(refusalPauseMs(147)).toBe(10_000)
  })
})
