/** Concurrency primitives shared by the crawler and the registry client. All waits are abortable. */

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

/** Resolves after `ms`, rejects with the signal's reason when aborted first. Never leaves a timer behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal))
  if (ms <= 0) return Promise.resolve()
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortReason(signal as AbortSignal))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

interface Waiter {
  resolve: (release: () => void) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
}

interface Slot {
  active: number
  queue: Waiter[]
}

/**
 * At most `limit(key)` holders per key at any time (per-host politeness). FIFO; a waiter whose signal aborts leaves
 * the queue. Idle keys are forgotten, so memory stays proportional to the hosts in flight.
 */
export class KeyedSemaphore {
  private readonly slots = new Map<string, Slot>()
  /** Highest number of simultaneous holders seen per key (diagnostics). */
  readonly peak = new Map<string, number>()

  constructor(private readonly limit: (key: string) => number) {}

  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal))
    let slot = this.slots.get(key)
    if (!slot) this.slots.set(key, (slot = { active: 0, queue: [] }))
    const max = Math.max(1, this.limit(key))
    if (slot.active < max) {
      slot.active++
      this.notePeak(key, slot.active)
      return Promise.resolve(this.releaser(key, slot))
    }
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined }
      if (signal) {
        waiter.onAbort = () => {
          const queue = (slot as Slot).queue
          const index = queue.indexOf(waiter)
          if (index >= 0) queue.splice(index, 1)
          this.forgetIfIdle(key, slot as Slot)
          reject(abortReason(signal))
        }
        signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      ;(slot as Slot).queue.push(waiter)
    })
  }

  /** Runs `task` while holding a slot for `key`. */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(key, signal)
    try {
      return await task()
    } finally {
      release()
    }
  }

  /** Keys currently tracked (in flight or queued). */
  get size(): number {
    return this.slots.size
  }

  private releaser(key: string, slot: Slot): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = slot.queue.shift()
      if (next) {
        if (next.signal && next.onAbort) next.signal.removeEventListener('abort', next.onAbort)
        // The slot passes straight to the next waiter: `active` is unchanged.
        next.resolve(this.releaser(key, slot))
        return
      }
      slot.active--
      this.forgetIfIdle(key, slot)
    }
  }

  private forgetIfIdle(key: string, slot: Slot) {
    if (slot.active === 0 && slot.queue.length === 0 && this.slots.get(key) === slot) this.slots.delete(key)
  }

  private notePeak(key: string, active: number) {
    if ((this.peak.get(key) ?? 0) < active) this.peak.set(key, active)
    if (this.peak.size > 10_000) this.peak.clear()
  }
}
