// Wall-clock and CPU timing for benchmarks.
import { performance } from 'node:perf_hooks'

export interface Timed<T> {
  result: T
  seconds: number
  /** user + system CPU seconds of this process during the call. */
  cpuSeconds: number
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<Timed<T>> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const result = await fn()
  const seconds = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  return { result, seconds, cpuSeconds: (used.user + used.system) / 1e6 }
}
