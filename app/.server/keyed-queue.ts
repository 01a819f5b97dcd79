import pLimit, { type LimitFunction } from 'p-limit'

/** The key already has as much work running and waiting as it may: refused at once, not queued. */
export class QueueFull extends Error {
  constructor() {
    super('queue full for this key')
    this.name = 'QueueFull'
  }
}

/**
 * A small queue per key (a client address): at most `concurrency` jobs of one key run at once and at
 * most `maxWaiting` more wait their turn; beyond that, run() rejects with QueueFull straight away. One
 * client's burst then occupies `concurrency` slots of the shared resource behind it, whatever its size,
 * and every other client's job finds at most that much ahead of it.
 */
export function keyedQueue({ concurrency, maxWaiting }: { concurrency: number; maxWaiting: number }) {
  const queues = new Map<string, { limit: LimitFunction; holders: number }>()
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      let queue = queues.get(key)
      if (!queue) queues.set(key, (queue = { limit: pLimit(concurrency), holders: 0 }))
      if (queue.holders >= concurrency + maxWaiting) return Promise.reject(new QueueFull())
      const entry = queue
      entry.holders++
      return entry.limit(work).finally(() => {
        // Forgotten when idle: a flood of addresses leaves nothing behind.
        if (--entry.holders === 0 && queues.get(key) === entry) queues.delete(key)
      })
    },
    /** Keys with work running or waiting (tests check nothing is left behind). */
    get size() {
      return queues.size
    },
  }
}
