// Resident set size sampling for benchmarks. Run each measured scenario in its own process
// (see child.ts): RSS rarely shrinks, so a previous scenario would inflate the next one's peak.

interface RssReport {
  /** RSS when sampling started, in bytes. */
  startBytes: number
  /** Highest sampled RSS, in bytes. */
  peakBytes: number
  /** The kernel's high-water mark for this whole process (getrusage maxrss), in bytes: catches peaks between samples. */
  maxRssBytes: number
  samples: number
}

export interface RssSampler {
  /** Takes one sample now (call it at phase boundaries: a busy event loop delays the timer). */
  sample(): void
  stop(): RssReport
}

/** Samples process.memoryUsage().rss every `intervalMs` (default 50 ms) until stop(). */
export function startRssSampler(intervalMs = 50): RssSampler {
  const startBytes = process.memoryUsage.rss()
  let peakBytes = startBytes
  let samples = 1
  const sample = () => {
    const rss = process.memoryUsage.rss()
    samples++
    if (rss > peakBytes) peakBytes = rss
  }
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    sample,
    stop() {
      clearInterval(timer)
      sample()
      return { startBytes, peakBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024, samples }
    },
  }
}

export const MB = 1024 * 1024

export function toMB(bytes: number, digits = 1): string {
  return (bytes / MB).toFixed(digits)
}
