// A Writable that throws its input away (the benchmark's /dev/null), optionally at a capped
// rate to play a slow client, so backpressure has to hold memory flat.
import { setTimeout as sleep } from 'node:timers/promises'
import { Writable } from 'node:stream'

export interface DiscardWritable extends Writable {
  readonly bytes: number
}

export function discardWritable({ bytesPerSecond }: { bytesPerSecond?: number } = {}): DiscardWritable {
  let bytes = 0
  const writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      if (!bytesPerSecond) return callback()
      sleep((chunk.length / bytesPerSecond) * 1000).then(() => callback(), callback)
    },
  })
  return Object.defineProperty(writable, 'bytes', { get: () => bytes }) as DiscardWritable
}
