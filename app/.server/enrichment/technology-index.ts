/**
 * Literal prefiltering of Wappalyzer patterns (see technologies.ts): each pattern is indexed by the literal text its
 * regex requires (regex-literals.ts), so an input is handed to the engine only with the technologies whose required
 * text it contains. Same detections as matching every technology, in microseconds instead of tens of milliseconds.
 */
import { requiredLiterals } from './regex-literals.ts'

/**
 * Finds which of many literals (3+ characters) occur in a text in one pass: literals are bucketed by their first three
 * characters, a 64 K bitmap skips positions no literal starts with, and candidates are confirmed with startsWith.
 * (Thousands of String#includes calls cost milliseconds per page; this costs microseconds.)
 */
class LiteralMatcher {
  private readonly buckets = new Map<number, string[]>()
  private readonly bitmap = new Uint8Array(1 << 16)

  constructor(literals: Iterable<string>) {
    for (const literal of literals) {
      if (literal.length < 3) continue
      const key = LiteralMatcher.key(literal, 0)
      this.bitmap[LiteralMatcher.slot(literal, 0)] = 1
      const bucket = this.buckets.get(key)
      if (bucket) bucket.push(literal)
      else this.buckets.set(key, [literal])
    }
  }

  /** A small-integer key (fast Map lookups); collisions only cost a startsWith. */
  private static key(text: string, i: number): number {
    return ((text.charCodeAt(i) << 20) ^ (text.charCodeAt(i + 1) << 10) ^ text.charCodeAt(i + 2)) & 0x3fffffff
  }

  private static slot(text: string, i: number): number {
    return (text.charCodeAt(i) * 961 + text.charCodeAt(i + 1) * 31 + text.charCodeAt(i + 2)) & 0xffff
  }

  /** The literals present in `text` (already lower case). */
  find(text: string): Set<string> {
    const found = new Set<string>()
    for (let i = 0, end = text.length - 2; i < end; i++) {
      if (this.bitmap[LiteralMatcher.slot(text, i)] === 0) continue
      const bucket = this.buckets.get(LiteralMatcher.key(text, i))
      if (!bucket) continue
      for (const literal of bucket) if (!found.has(literal) && text.startsWith(literal, i)) found.add(literal)
    }
    return found
  }
}

/**
 * Items reachable from one input by the literal text they require: a pattern whose regex needs
 * "googletagmanager.com/gtag/js" cannot match a value that lacks it, so only items with a required literal present in
 * the input (or without one, `always`) are kept.
 */
export interface LiteralIndex<T> {
  always: T[]
  byLiteral: Map<string, T[]>
  matcher?: LiteralMatcher
}

export const emptyIndex = <T>(): LiteralIndex<T> => ({ always: [], byLiteral: new Map() })

/** Indexes `item` under `literals` (any one of them is required), or as always when there is none. */
export function addLiterals<T>(index: LiteralIndex<T>, item: T, literals: string[] | null) {
  if (literals === null || literals.length === 0) {
    index.always.push(item)
    return
  }
  for (const literal of new Set(literals)) {
    const list = index.byLiteral.get(literal)
    if (list) list.push(item)
    else index.byLiteral.set(literal, [item])
  }
}

type Pattern = { regex?: RegExp }

/** Indexes `item` by what its patterns require: one pattern without a literal makes it always a candidate. */
export function addPatterns<T>(index: LiteralIndex<T>, item: T, patterns: Pattern[]) {
  const literalSets = patterns.map((p) => (p.regex instanceof RegExp ? requiredLiterals(p.regex.source) : null))
  addLiterals(index, item, literalSets.some((set) => set === null) ? null : (literalSets.flat() as string[]))
}

/** Items of `index` that `values` might match. */
export function candidates<T>(index: LiteralIndex<T>, values: string[], into: Set<T> = new Set()): Set<T> {
  for (const item of index.always) into.add(item)
  if (index.byLiteral.size === 0) return into
  index.matcher ??= new LiteralMatcher(index.byLiteral.keys())
  // Joined: a literal spanning two values only adds a harmless candidate.
  for (const literal of index.matcher.find(values.join('\n').toLowerCase())) {
    for (const item of index.byLiteral.get(literal) ?? []) into.add(item)
  }
  return into
}
