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

export interface RssTimeline {
  /** Highest sampled RSS, in bytes. */
  peakBytes: number
  /** RSS at each fraction of the run (0.25 = a quarter of the way), in bytes: flat memory shows as equal figures. */
  at(fractions: number[]): number[]
}

/** Samples RSS every `intervalMs` with its time, for "RSS over the run"; stop() ends the sampling. */
export function startRssTimeline(intervalMs = 100): { stop(): RssTimeline } {
  const start = performance.now()
  const samples: Array<[number, number]> = [[0, process.memoryUsage.rss()]]
  const timer = setInterval(() => samples.push([performance.now() - start, process.memoryUsage.rss()]), intervalMs)
  timer.unref()
  return {
    stop() {
      clearInterval(timer)
      const duration = performance.now() - start
      samples.push([duration, process.memoryUsage.rss()])
      return {
        peakBytes: Math.max(...samples.map(([, rss]) => rss)),
        at: (fractions) => fractions.map((fraction) => (samples.findLast(([t]) => t <= fraction * duration) ?? samples[0]!)[1]),
      }
    },
  }
}
