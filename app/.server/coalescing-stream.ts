import { Transform, type TransformCallback } from 'node:stream'

/**
 * A pass-through that joins the chunks written in one turn of the event loop into one. React's renderer writes a page
 * in ~2 KB pieces, each of which would otherwise go through the web stream, compression and a socket write of its
 * own (~110 for a 220 KB page); a flush of React's still arrives in the same turn, so nothing waits longer.
 */
export class CoalescingStream extends Transform {
  private pending: Buffer[] = []
  private scheduled = false
  private onFinal: (() => void) | undefined

  constructor(options: { onFinal?: () => void } = {}) {
    super()
    this.onFinal = options.onFinal
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.release())
    }
    callback()
  }

  override _flush(callback: TransformCallback) {
    this.release()
    this.onFinal?.()
    callback()
  }

  private release() {
    this.scheduled = false
    if (!this.pending.length) return
    const joined = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending)
    this.pending = []
    this.push(joined)
  }
}
