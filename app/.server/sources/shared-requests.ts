/**
 * Identical work asked for while it is already running is joined, not started again: two users previewing the same
 * search, or a preview and the export launched from it, share one upstream call. Each caller keeps its own abort
 * signal; the shared work is aborted only when every caller waiting for it has given up.
 */
interface Running<T> {
  promise: Promise<T>
  controller: AbortController
  waiters: number
}

export class SharedRequests<T> {
  private readonly running = new Map<string, Running<T>>()

  /** Joins the work running under `key`, or starts it with `start` (which gets the shared signal). */
  run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    signal?.throwIfAborted()
    let entry = this.running.get(key)
    if (!entry) {
      const controller = new AbortController()
      const created: Running<T> = { controller, waiters: 0, promise: Promise.resolve(undefined as T) }
      created.promise = (async () => {
        try {
          return await start(controller.signal)
        } finally {
          if (this.running.get(key) === created) this.running.delete(key)
        }
      })()
      // Every waiter may have left: nobody else would observe the failure.
      created.promise.catch(() => {})
      this.running.set(key, created)
      entry = created
    }
    const joined = entry
    joined.waiters++
    return new Promise<T>((resolve, reject) => {
      let settled = false
      const leave = () => {
        settled = true
        joined.waiters--
        signal?.removeEventListener('abort', onAbort)
      }
      const onAbort = () => {
        if (settled) return
        leave()
        if (joined.waiters === 0) {
          if (this.running.get(key) === joined) this.running.delete(key)
          joined.controller.abort(signal?.reason)
        }
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      joined.promise.then(
        (value) => {
          if (settled) return
          leave()
          resolve(value)
        },
        (error: unknown) => {
          if (settled) return
          leave()
          reject(error)
        },
      )
    })
  }

  /** Work running now (tests). */
  get size(): number {
    return this.running.size
  }

  clear(): void {
    this.running.clear()
  }
}
