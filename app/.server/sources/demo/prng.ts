/**
 * Small deterministic randomness for the demo source and demo websites: the same input string always gives the same
 * numbers, on every machine and Node version (no Math.random, no platform hashing).
 */

/** 32-bit FNV-1a over UTF-16 code units, then a murmur3 finaliser so nearby strings land far apart. */
export function hashString(input: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** mulberry32: tiny, fast, good enough for plausible fake data. */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0)
    let r = this.next() * total
    for (const [item, w] of items) {
      r -= w
      if (r < 0) return item
    }
    return (items[items.length - 1] as readonly [T, number])[0]
  }

  /** Picks `count` distinct items, keeping their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const indexes = items.map((_, i) => i)
    for (let i = indexes.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number]
    }
    return indexes
      .slice(0, Math.max(0, Math.min(count, items.length)))
      .sort((a, b) => a - b)
      .map((i) => items[i] as T)
  }
}

/**
 * An independent stream per purpose ("name", "address", "site"...): adding a field to one generator never shifts
 * the numbers another generator sees, so existing demo businesses keep their names when the code evolves.
 */
export function rngFor(seed: number, stream: string): Rng {
  return new Rng(hashString(`${seed}:${stream}`))
}
